// The alert state machine (lib/alerts/evaluate-rule.ts): examples and properties over random
// sequences of measured values, plus the pure pieces of notification (backoff, bodies, links).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { conditionHolds, evaluateRule, type RuleCondition, type RuleState } from '@/lib/alerts/evaluate-rule';
import { retryDelayMs } from '@/lib/alerts/deliver-notifications';
import { notificationBody, transitionSessionsPath } from '@/lib/alerts/notification-body';
import { ALERT_COMPARISONS, ZAlertNotification } from '@/lib/contract/api/alerts';
import type { AlertTransitionRow } from '@/lib/store/alert-transitions';

const rule = (o: Partial<RuleCondition> = {}): RuleCondition => ({ comparison: 'gt', threshold: 0, forMs: 30_000, enabled: true, ...o });

test('inactive → pending → firing after `for` → resolved', () => {
  const r = rule();
  let s: RuleState | null = null;
  const step = (value: number, now: number) => {
    const e = evaluateRule(r, s, value, now);
    s = e.next;
    return e.transition;
  };
  assert.equal(step(0, 0), null);
  assert.equal(step(1, 10_000), 'pending');
  assert.equal(step(2, 25_000), null);
  assert.equal(step(1, 40_000), 'firing', 'held 30 s since 10 s');
  assert.deepEqual(s, { state: 'firing', since: 40_000, activeSince: 10_000 });
  assert.equal(step(1, 55_000), null);
  assert.equal(step(0, 70_000), 'resolved');
  assert.deepEqual(s, { state: 'inactive', since: 70_000, activeSince: null });
});

test('a break before `for` clears the pending state and restarts the clock', () => {
  const r = rule();
  let e = evaluateRule(r, null, 1, 0);
  assert.equal(e.transition, 'pending');
  e = evaluateRule(r, e.next, 0, 20_000);
  assert.equal(e.transition, 'cleared');
  e = evaluateRule(r, e.next, 1, 25_000);
  assert.equal(e.transition, 'pending');
  e = evaluateRule(r, e.next, 1, 50_000);
  assert.equal(e.transition, null, 'only 25 s since the condition came back');
  assert.equal(evaluateRule(r, e.next, 1, 55_000).transition, 'firing');
});

test('for = 0 fires at once; disabling resolves; no data never fires', () => {
  const r = rule({ forMs: 0 });
  const fired = evaluateRule(r, null, 3, 1000);
  assert.equal(fired.transition, 'firing');
  assert.equal(evaluateRule({ ...r, enabled: false }, fired.next, 3, 2000).transition, 'resolved');
  assert.equal(evaluateRule(r, null, Number.NaN, 1000).transition, null);
  assert.equal(conditionHolds(Number.NaN, 'lt', 5), false);
  assert.equal(conditionHolds(5, 'gte', 5), true);
  assert.equal(conditionHolds(5, 'lte', 5), true);
  assert.equal(conditionHolds(5, 'lt', 5), false);
});

test('a firing rule stays firing while the condition holds, even when its `for` is raised', () => {
  const fired = evaluateRule(rule({ forMs: 0 }), null, 1, 0).next;
  assert.deepEqual(evaluateRule(rule({ forMs: 3_600_000 }), fired, 1, 1000), { next: fired, transition: null });
});

const arbSteps = fc.array(
  fc.record({
    dt: fc.integer({ min: 1, max: 60_000 }),
    value: fc.oneof(fc.integer({ min: -3, max: 3 }), fc.constant(Number.NaN)),
    enabled: fc.boolean(),
  }),
  { maxLength: 60 },
);
const arbRule = fc.record({
  comparison: fc.constantFrom(...ALERT_COMPARISONS),
  threshold: fc.integer({ min: -2, max: 2 }),
  forMs: fc.integer({ min: 0, max: 120_000 }),
  enabled: fc.constant(true),
});

test('properties: transitions follow the state graph, firing needs `for` of unbroken condition, resolved only after firing', () => {
  fc.assert(
    fc.property(arbRule, arbSteps, (r, steps) => {
      let s = null as RuleState | null;
      let now = 0;
      let holdingSince: number | null = null;
      let firings = 0;
      let resolutions = 0;
      for (const step of steps) {
        now += step.dt;
        const cond = { ...r, enabled: step.enabled };
        const holds = step.enabled && conditionHolds(step.value, r.comparison, r.threshold);
        holdingSince = holds ? (holdingSince ?? now) : null;
        const before: RuleState['state'] = s?.state ?? 'inactive';
        const { next, transition } = evaluateRule(cond, s, step.value, now);
        // The state changes exactly when there is a transition, and the transition names the new state.
        assert.equal(transition === null, next.state === before);
        if (transition === 'pending' || transition === 'firing') assert.equal(next.state, transition);
        if (transition === 'resolved') assert.equal(before, 'firing');
        if (transition === 'cleared') assert.equal(before, 'pending');
        // Active states exactly while the condition holds; activeSince is when it started to hold.
        assert.equal(next.state !== 'inactive', holds);
        assert.equal(next.activeSince, holdingSince);
        if (transition === 'firing') assert.ok(now - holdingSince! >= r.forMs, 'fired before `for` elapsed');
        if (next.state === 'pending') assert.ok(now - holdingSince! < r.forMs);
        if (transition !== null) assert.equal(next.since, now);
        firings += transition === 'firing' ? 1 : 0;
        resolutions += transition === 'resolved' ? 1 : 0;
        assert.ok(firings - resolutions === (next.state === 'firing' ? 1 : 0));
        s = next;
      }
    }),
    { numRuns: 500 },
  );
});

test('property: evaluation is deterministic and a repeated step with the same input changes nothing', () => {
  fc.assert(
    fc.property(arbRule, arbSteps, (r, steps) => {
      let s = null as RuleState | null;
      let now = 0;
      for (const step of steps) {
        now += step.dt;
        const a = evaluateRule(r, s, step.value, now);
        assert.deepEqual(evaluateRule(r, s, step.value, now), a);
        assert.equal(evaluateRule(r, a.next, step.value, now).transition, null, 'a second evaluation at the same instant is idempotent');
        s = a.next;
      }
    }),
  );
});

test('retry backoff doubles from the base, is capped at 1 h and honours Retry-After', () => {
  assert.deepEqual(
    [1, 2, 3, 4].map((n) => retryDelayMs(n, 1000)),
    [1000, 2000, 4000, 8000],
  );
  assert.equal(retryDelayMs(40, 1000), 3_600_000);
  assert.equal(retryDelayMs(1, 1000, 30_000), 30_000);
  assert.equal(retryDelayMs(3, 1000, 10), 4000);
});

const transition: AlertTransitionRow = {
  id: 't1',
  ruleId: 'r1',
  ruleName: 'Naive <resume>',
  kind: 'firing',
  at: Date.parse('2026-12-01T01:02:30.000Z'),
  value: 3,
  measure: 'naive_resumes',
  comparison: 'gt',
  threshold: 0,
  windowMs: 300_000,
  server: 'mcp-eu-1',
  series: 'mcp-eu-1',
  sequence: 4,
};

test('a notification links to its evidence: the flag of the measure, probes left out; no filter where no one kind of session is', () => {
  const path = (measure: AlertTransitionRow['measure']) =>
    new URL(transitionSessionsPath({ ...transition, measure }), 'https://dw.example').searchParams;
  assert.deepEqual([path('deadlocks_ongoing').get('flag'), path('deadlocks_ongoing').get('synthetic')], ['deadlock', 'exclude']);
  assert.equal(path('dual_negotiations').get('flag'), 'dual_negotiation');
  assert.equal(path('burned_token_reuses').get('flag'), 'burned_token_reuse');
  assert.equal(path('refusal_latency_p95_ms').get('flag'), 'refused');
  for (const m of ['renegotiation_rate', 'rejected_requests', 'server_silence_seconds', 'probes_failing'] as const)
    assert.deepEqual([path(m).get('flag'), path(m).get('synthetic')], [null, null], m);
  // The window and server stay as they were.
  assert.equal(path('deadlocks_ongoing').get('server'), 'mcp-eu-1');
  assert.equal(path('deadlocks_ongoing').get('from'), '2026-12-01T00:57:30.000Z');
});

test('notification bodies: the standard JSON contract, Slack text with an escaped <url|label> link, both signable', () => {
  const standard = ZAlertNotification.parse(JSON.parse(notificationBody('standard', transition, 'https://dw.example')));
  assert.equal(standard.kind, 'firing');
  assert.equal(
    standard.sessionsUrl,
    'https://dw.example/sessions?from=2026-12-01T00%3A57%3A30.000Z&to=2026-12-01T01%3A03%3A00.000Z&server=mcp-eu-1&flag=naive_resume&synthetic=exclude',
  );
  assert.equal(standard.summary, 'FIRING: Naive <resume> on mcp-eu-1 — naive resumes: 3, more than 0 over the last 5 min');
  assert.equal(standard.server, 'mcp-eu-1');
  assert.equal(standard.alertKey, 'r1/mcp-eu-1');
  assert.equal(standard.sequence, 4);
  const slack = JSON.parse(notificationBody('slack', transition, 'https://dw.example')) as { text: string };
  assert.deepEqual(Object.keys(slack), ['text']);
  assert.match(slack.text, /Naive &lt;resume&gt;/);
  assert.match(
    slack.text,
    /<https:\/\/dw\.example\/sessions\?from=[^|]+&server=mcp-eu-1&flag=naive_resume&synthetic=exclude\|Sessions in the alert's window>/,
  );
  assert.equal(transitionSessionsPath({ ...transition, server: null, series: '' }).includes('server='), false);
  // A rule for all servers fires per server: the link and the body name the server of the change.
  const perServer = ZAlertNotification.parse(
    JSON.parse(notificationBody('standard', { ...transition, server: null }, 'https://dw.example')),
  );
  assert.equal(new URL(perServer.sessionsUrl).searchParams.get('server'), 'mcp-eu-1');
  assert.equal(perServer.rule.server, null);
  assert.equal(perServer.server, 'mcp-eu-1');
  assert.doesNotMatch(perServer.summary, /all servers/);
  const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
  const body = notificationBody('slack', transition, 'https://dw.example');
  const at = new Date();
  const signature = new Webhook(secret).sign('msg_1', at, body);
  assert.doesNotThrow(() =>
    new Webhook(secret).verify(body, {
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': signature,
    }),
  );
});
