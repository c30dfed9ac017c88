// Issue 23, notifications: what a receiver reads. A resolved message says the condition no longer
// holds (it read "ongoing deadlocks 0 > 0"), every message names its server, links use the bound
// address when DOORWATCH_PUBLIC_ORIGIN is unset (they used localhost), and a rate-bound summary
// says how many notifications were held back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { heldSummaryBody, heldSummaryText } from '@/lib/alerts/held-summary-body';
import { linkOriginFrom } from '@/lib/alerts/link-origin';
import { notificationBody, transitionSummary } from '@/lib/alerts/notification-body';
import { ZAlertHeldSummary, ZAlertNotification } from '@/lib/contract/api/alerts';
import type { AlertTransitionRow } from '@/lib/store/alert-transitions';

const deadlock: AlertTransitionRow = {
  id: 't1',
  ruleId: 'default-deadlock-ongoing',
  ruleName: 'Ongoing deadlock',
  kind: 'resolved',
  at: Date.parse('2026-12-01T01:02:30.000Z'),
  value: 0,
  measure: 'deadlocks_ongoing',
  comparison: 'gt',
  threshold: 0,
  windowMs: 900_000,
  server: null,
  series: 'srv-a',
  sequence: 7,
};

test('a resolved message says the condition no longer holds, in words, and names the server', () => {
  const text = transitionSummary(deadlock);
  // An instant measure (read at the evaluation moment) names no window; a windowed one does.
  assert.equal(text, 'RESOLVED: Ongoing deadlock on srv-a — ongoing deadlocks: 0, no longer more than 0');
  assert.doesNotMatch(text, /0 > 0/);
  assert.doesNotMatch(text, /all servers/);
  assert.equal(
    transitionSummary({ ...deadlock, kind: 'firing', value: 3 }),
    'FIRING: Ongoing deadlock on srv-a — ongoing deadlocks: 3, more than 0',
  );
  assert.equal(
    transitionSummary({ ...deadlock, kind: 'firing', value: 3, measure: 'naive_resumes', ruleName: 'Naive resume' }),
    'FIRING: Naive resume on srv-a — naive resumes: 3, more than 0 over the last 15 min',
  );
  assert.equal(
    transitionSummary({ ...deadlock, value: null, comparison: 'lte', threshold: 2 }),
    'RESOLVED: Ongoing deadlock on srv-a — ongoing deadlocks: no data, no longer at most 2',
  );
  const slack = JSON.parse(notificationBody('slack', deadlock, 'http://127.0.0.1:3000')).text as string;
  assert.match(slack, /^\*RESOLVED: Ongoing deadlock on srv-a — ongoing deadlocks: 0, no longer more than 0/);
});

test('the standard body carries the alert key and its sequence for receivers to order by', () => {
  const body = ZAlertNotification.parse(JSON.parse(notificationBody('standard', deadlock, 'https://dw.example')));
  assert.equal(body.alertKey, 'default-deadlock-ongoing/srv-a');
  assert.equal(body.sequence, 7);
  assert.equal(body.server, 'srv-a');
});

test('links: DOORWATCH_PUBLIC_ORIGIN first; else the bound address, a wildcard bind naming the machine', () => {
  const base = { DOORWATCH_PUBLIC_ORIGIN: [] as string[], HOST: '0.0.0.0', PORT: 3000 };
  assert.deepEqual(linkOriginFrom({ ...base, DOORWATCH_PUBLIC_ORIGIN: ['https://dw.example.com'] }, 'box'), {
    origin: 'https://dw.example.com',
    configured: true,
  });
  assert.deepEqual(linkOriginFrom({ ...base, HOST: '10.1.2.3', PORT: 8080 }, 'box'), { origin: 'http://10.1.2.3:8080', configured: false });
  assert.deepEqual(linkOriginFrom(base, 'Dash-01'), { origin: 'http://dash-01:3000', configured: false });
  assert.deepEqual(linkOriginFrom({ ...base, HOST: '::' }, 'box'), { origin: 'http://box:3000', configured: false });
  assert.deepEqual(linkOriginFrom({ ...base, HOST: 'fd00::5' }, 'box'), { origin: 'http://[fd00::5]:3000', configured: false });
  assert.doesNotMatch(linkOriginFrom({ ...base, HOST: '192.168.1.9' }, 'box').origin, /localhost/);
});

test('a rate-bound summary says how many were held back and each alert’s newest held state', () => {
  const held = { id: 'm', transitionId: 't', ruleId: 'r', ruleName: 'Naive resume', at: 0 };
  const s = {
    heldBack: 12,
    maxPerMinute: 10,
    alerts: [
      { ...held, alertKey: 'r/srv-a', sequence: 3, kind: 'firing' as const, series: 'srv-a' },
      { ...held, alertKey: 'r/srv-b', sequence: 2, kind: 'resolved' as const, series: 'srv-b' },
    ],
  };
  assert.equal(
    heldSummaryText(s),
    '12 notifications were held back for this contact point (at most 10 a minute). Newest held states: FIRING Naive resume on srv-a; RESOLVED Naive resume on srv-b.',
  );
  const body = ZAlertHeldSummary.parse(JSON.parse(heldSummaryBody('standard', s, 'https://dw.example')));
  assert.equal(body.heldBack, 12);
  assert.deepEqual(
    body.alerts.map((a) => [a.alertKey, a.sequence, a.kind, a.server]),
    [
      ['r/srv-a', 3, 'firing', 'srv-a'],
      ['r/srv-b', 2, 'resolved', 'srv-b'],
    ],
  );
  assert.equal(body.alertsUrl, 'https://dw.example/alerts');
});
