import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  initialClientState,
  isResettable,
  stepClient,
  type ClientAction,
  type ClientInput,
  type ClientState,
} from '@/scripts/sim/client-machine';
import type { SseEvent } from '@/lib/wire/sse';

function run(inputs: ClientInput[], from: ClientState = initialClientState()) {
  let state = from;
  const actions: ClientAction[] = [];
  for (const input of inputs) {
    const step = stepClient(state, input);
    state = step.state;
    actions.push(...step.actions);
  }
  return { state, actions };
}

const sse = (event: string, id: number | null = null, data = '{}'): ClientInput => ({
  type: 'sse',
  event: { id: id === null ? null : String(id), event, data } satisfies SseEvent,
});
const types = (actions: ClientAction[]) => actions.map((a) => a.type);

/** Open a session and stream events 1..3. */
const opened: ClientInput[] = [{ type: 'start' }, { type: 'opened', token: 't1' }, sse('message', 1), sse('message', 2), sse('message', 3)];

describe('sim client state machine', () => {
  test('opens, streams, latches on upgrade-accepted and upgrades when the window elapses', () => {
    const { state, actions } = run([
      ...opened,
      sse('upgrade-accepted', 4),
      { type: 'window-elapsed' },
      { type: 'handshake', status: 101 },
      { type: 'ws-done' },
    ]);
    assert.deepEqual(types(actions), ['open', 'start-window', 'upgrade', 'websocket-exchange', 'session-ended']);
    assert.deepEqual(
      actions.find((a) => a.type === 'upgrade'),
      { type: 'upgrade', token: 't1', negotiation: 4 },
    );
    assert.deepEqual(actions.at(-1), { type: 'session-ended', token: 't1', how: 'websocket' });
    assert.equal(state.phase, 'idle');
  });

  test('latched: after upgrade-accepted the client is awaiting-upgrade and resettable', () => {
    const { state } = run([...opened, sse('upgrade-accepted', 4)]);
    assert.equal(state.phase, 'awaiting-upgrade');
    assert.equal(state.latched, 4);
    assert.equal(state.cursor, '4');
    assert.equal(isResettable(state), true);
  });

  test('an ordinary drop resumes with Last-Event-ID = cursor and keeps streaming', () => {
    const { state, actions } = run([...opened, { type: 'reset' }, { type: 'reconnect-due', withLastEventId: true }, { type: 'resumed' }]);
    assert.deepEqual(
      actions.filter((a) => a.type === 'resume'),
      [{ type: 'resume', token: 't1', lastEventId: '3' }],
    );
    assert.equal(state.phase, 'streaming');
  });

  test('a reset inside the window cancels the window; the latched resume waits (stuck) and a timeout ends it as a deadlock', () => {
    const { state, actions } = run([
      ...opened,
      sse('upgrade-accepted', 4),
      { type: 'reset' },
      { type: 'reconnect-due', withLastEventId: true },
      { type: 'resumed' },
      { type: 'window-elapsed' }, // stale timer: ignored
      sse('session-timeout'),
    ]);
    assert.deepEqual(types(actions), ['open', 'start-window', 'cancel-window', 'schedule-reconnect', 'resume', 'session-ended']);
    assert.deepEqual(
      actions.find((a) => a.type === 'resume'),
      { type: 'resume', token: 't1', lastEventId: '4' },
    );
    assert.deepEqual(actions.at(-1), { type: 'session-ended', token: 't1', how: 'deadlock' });
    assert.equal(state.phase, 'idle');
  });

  test('session-superseded: cursor discarded, renegotiation names the burned token', () => {
    const { state, actions } = run([
      ...opened,
      sse('upgrade-accepted', 4),
      { type: 'reset' },
      { type: 'reconnect-due', withLastEventId: true },
      { type: 'resumed' },
      sse('session-superseded'),
      { type: 'renegotiate-due' },
      { type: 'opened', token: 't2' },
    ]);
    assert.deepEqual(
      actions.filter((a) => a.type === 'session-ended'),
      [{ type: 'session-ended', token: 't1', how: 'superseded' }],
    );
    assert.deepEqual(actions.filter((a) => a.type === 'open').at(-1), { type: 'open', previousToken: 't1' });
    assert.deepEqual(actions.at(-1), { type: 'renegotiated', token: 't2', previousToken: 't1' });
    assert.equal(state.phase, 'streaming');
    assert.equal(state.token, 't2');
    assert.equal(state.cursor, null);
    assert.equal(state.previousToken, null);
  });

  test('reconnect without Last-Event-ID forgets cursor and latch; a second upgrade-accepted answered 409 falls back (deadlock on timeout)', () => {
    const { state, actions } = run([
      ...opened,
      sse('upgrade-accepted', 4),
      { type: 'reset' },
      { type: 'reconnect-due', withLastEventId: false },
      { type: 'resumed' },
      sse('upgrade-accepted', 5),
      { type: 'window-elapsed' },
      { type: 'handshake', status: 409 },
    ]);
    assert.deepEqual(
      actions.find((a) => a.type === 'resume'),
      { type: 'resume', token: 't1', lastEventId: null },
    );
    assert.deepEqual(
      actions.find((a) => a.type === 'upgrade'),
      { type: 'upgrade', token: 't1', negotiation: 5 },
    );
    assert.ok(actions.some((a) => a.type === 'dual-rejected'));
    assert.equal(state.phase, 'fallback');
    assert.equal(isResettable(state), false);
    const end = stepClient(state, sse('session-timeout'));
    assert.deepEqual(end.actions, [{ type: 'session-ended', token: 't1', how: 'deadlock' }]);
  });

  test('resets are ignored outside live SSE phases', () => {
    for (const inputs of [
      [],
      [{ type: 'start' }],
      [...opened, sse('upgrade-accepted', 4), { type: 'window-elapsed' }],
    ] as ClientInput[][]) {
      const { state } = run(inputs);
      assert.equal(isResettable(state), false);
      assert.deepEqual(stepClient(state, { type: 'reset' }).actions, []);
    }
  });

  test('stop while streaming closes the session; stop while idle stops at once', () => {
    const streaming = run(opened).state;
    const stop = stepClient(streaming, { type: 'stop' });
    assert.deepEqual(stop.actions, [{ type: 'close-session', token: 't1' }]);
    assert.equal(stop.state.phase, 'closing');
    const done = stepClient(stop.state, sse('session-closed'));
    assert.deepEqual(types(done.actions), ['session-ended', 'stopped']);
    assert.equal(done.state.phase, 'closed');
    assert.deepEqual(stepClient(initialClientState(), { type: 'stop' }).actions, [{ type: 'stopped' }]);
  });

  test('stop during the window lets the upgrade finish, then stops; a stuck session runs to its timeout', () => {
    const latched = run([...opened, sse('upgrade-accepted', 4)]).state;
    const { state, actions } = run(
      [{ type: 'stop' }, { type: 'window-elapsed' }, { type: 'handshake', status: 101 }, { type: 'ws-done' }],
      latched,
    );
    assert.deepEqual(types(actions), ['upgrade', 'websocket-exchange', 'session-ended', 'stopped']);
    assert.equal(state.phase, 'closed');

    const stuck = run([
      ...opened,
      sse('upgrade-accepted', 4),
      { type: 'reset' },
      { type: 'reconnect-due', withLastEventId: true },
      { type: 'resumed' },
    ]).state;
    const s1 = stepClient(stuck, { type: 'stop' });
    assert.deepEqual(s1.actions, []);
    assert.deepEqual(types(stepClient(s1.state, sse('session-timeout')).actions), ['session-ended', 'stopped']);
  });

  test('a stream resumed during drain is closed only once an ordinary event shows it healthy', () => {
    const reconnecting = run([...opened, { type: 'reset' }, { type: 'stop' }, { type: 'reconnect-due', withLastEventId: true }]).state;
    const resumed = stepClient(reconnecting, { type: 'resumed' });
    assert.deepEqual(resumed.actions, []);
    assert.equal(resumed.state.phase, 'streaming');
    const healthy = stepClient(resumed.state, sse('message', 4));
    assert.deepEqual(healthy.actions, [{ type: 'close-session', token: 't1' }]);
    assert.equal(healthy.state.phase, 'closing');
    assert.equal(healthy.state.cursor, '4');
  });

  test('drain does not cut a naive fresh-stream boundary resume short: the second negotiation runs into its 409 and the timeout', () => {
    // Reset while latched, drain starts, the client reconnects without Last-Event-ID; the naive
    // server answers the boundary resume with a fresh stream and a second upgrade-accepted.
    const latched = run([
      ...opened,
      sse('upgrade-accepted', 4),
      { type: 'reset' },
      { type: 'stop' },
      { type: 'reconnect-due', withLastEventId: false },
    ]).state;
    const { state, actions } = run(
      [
        { type: 'resumed' },
        sse('upgrade-accepted', 5),
        { type: 'window-elapsed' },
        { type: 'handshake', status: 409 },
        sse('session-timeout'),
      ],
      latched,
    );
    assert.ok(!actions.some((a) => a.type === 'close-session'), 'no DELETE under the deadlock');
    assert.deepEqual(types(actions), ['start-window', 'upgrade', 'dual-rejected', 'session-ended', 'stopped']);
    assert.deepEqual(
      actions.find((a) => a.type === 'session-ended'),
      { type: 'session-ended', token: 't1', how: 'deadlock' },
    );
    assert.equal(state.phase, 'closed');
  });

  test('a refused resume during drain renegotiates without a DELETE racing the terminal event', () => {
    const latched = run([
      ...opened,
      sse('upgrade-accepted', 4),
      { type: 'reset' },
      { type: 'stop' },
      { type: 'reconnect-due', withLastEventId: false },
    ]).state;
    const { state, actions } = run([{ type: 'resumed' }, sse('session-superseded')], latched);
    assert.deepEqual(types(actions), ['session-ended', 'schedule-renegotiation']);
    assert.equal(state.phase, 'renegotiating');
  });

  test('a renegotiation during drain still opens (and then closes) the new session', () => {
    const refused = run([
      ...opened,
      sse('upgrade-accepted', 4),
      { type: 'reset' },
      { type: 'stop' },
      { type: 'reconnect-due', withLastEventId: true },
      { type: 'resumed' },
      sse('session-superseded'),
    ]);
    assert.equal(refused.state.phase, 'renegotiating');
    const { actions } = run([{ type: 'renegotiate-due' }, { type: 'opened', token: 't2' }], refused.state);
    assert.deepEqual(actions, [
      { type: 'open', previousToken: 't1' },
      { type: 'renegotiated', token: 't2', previousToken: 't1' },
      { type: 'close-session', token: 't2' },
    ]);
  });

  test('an unsafe-looking but safe resume: cursor below the upgrade event replays it and the client latches then', () => {
    const { state, actions } = run([
      ...opened,
      { type: 'reset' },
      { type: 'reconnect-due', withLastEventId: true },
      { type: 'resumed' },
      sse('upgrade-accepted', 4),
    ]);
    assert.deepEqual(
      actions.find((a) => a.type === 'resume'),
      { type: 'resume', token: 't1', lastEventId: '3' },
    );
    assert.equal(state.phase, 'awaiting-upgrade');
    assert.equal(state.latched, 4);
  });
});
