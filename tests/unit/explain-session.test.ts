// explain_session's account (lib/boundary/explain-session.ts) over summaries made by summarize()
// from real timelines: each outcome of the refuse-at-the-door rule, the account's order, and the
// resumption notes of a server without the upgrade extension.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { summarize } from '@/lib/boundary/summarize';
import { summarizeResumption } from '@/lib/boundary/resumption-health';
import { explainSession } from '@/lib/boundary/explain-session';
import type { TSessionView } from '@/lib/contract/api/sessions';
import { T0, Timeline, isoAt, pendingUpgrade } from './support/timeline';

function explain(tl: Timeline, nowOffset = 3_600_000) {
  const summary = summarize(tl.events, T0 + nowOffset, { server: 'srv-1' });
  const view: TSessionView = {
    ...summary,
    server: 'srv-1',
    firstEventAt: tl.events[0].at,
    updatedAt: isoAt(nowOffset),
    resumption: summarizeResumption(tl.events),
    synthetic: false,
    version: null,
    instance: null,
  };
  return explainSession(view, tl.events);
}

test('refused at the door: conforms, names the door event, the resume cursor and the refusal', () => {
  const e = explain(pendingUpgrade().resume(2_000, 5).refused(2_050));
  assert.equal(e.outcome, 'refused_correctly');
  assert.equal(e.conforms, true);
  const text = e.account.join('\n');
  assert.match(text, /upgrade-accepted/);
  assert.match(text, /Last-Event-ID 5/);
  assert.match(text, /session-superseded 50 ms after the resume/);
  // In timeline order: opened, the door, the resume, the refusal.
  const order = ['opened', 'one-way door', 'asked to resume', 'refused'].map((w) => text.indexOf(w));
  assert.deepEqual(
    [...order].sort((a, b) => a - b),
    order,
  );
  assert.ok(
    order.every((i) => i >= 0),
    text,
  );
});

test('a naive resume past the door that left the client waiting is a deadlock, and does not conform', () => {
  const e = explain(pendingUpgrade().resume(2_000, 5).accepted(2_040, 0));
  assert.equal(e.outcome, 'deadlocked');
  assert.equal(e.conforms, false);
  assert.match(e.account.join('\n'), /naive resume/);
  assert.match(e.account.join('\n'), /deadlocked for .* and counting/);
  assert.match(e.headline, /must refuse/);
});

test('the same token back without Last-Event-ID is said so', () => {
  const e = explain(pendingUpgrade().resume(2_000, null).refused(2_030));
  assert.equal(e.outcome, 'refused_correctly');
  assert.match(e.account.join('\n'), /same token and no Last-Event-ID/);
});

test('a completed handshake is through the door; no upgrade is never at the door', () => {
  assert.equal(explain(new Timeline().opened(0).upgrade(10, 3).completed(60)).outcome, 'through_the_door');
  const never = explain(new Timeline().opened(0).dropped(10).closed(20));
  assert.equal(never.outcome, 'never_at_door');
  assert.equal(never.conforms, true);
  assert.match(never.account.join('\n'), /session\.closed/);
});

test('waiting at the door: upgrade-accepted emitted, nothing answered yet', () => {
  const e = explain(pendingUpgrade());
  assert.equal(e.outcome, 'waiting_at_door');
  assert.equal(e.conforms, true);
});

test('an idle resume of a server without the extension is reported and does not conform', () => {
  const tl = new Timeline().opened(0).dropped(10).resume(20, 3).add('resume.accepted', 30, { replayed: 0, available: 4 });
  const e = explain(tl);
  assert.equal(e.outcome, 'never_at_door');
  assert.equal(e.conforms, false);
  assert.match(e.account.join('\n'), /idle/);
});
