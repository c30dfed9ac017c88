// The reference client's state machine, pure: (state, input) → (state, actions). The driver in
// client.ts does the I/O (HTTP, SSE, WebSocket, timers) and feeds what happened back in.
//
// The behaviour the design note describes, on purpose:
// - after `upgrade-accepted` the client LATCHES to awaiting-upgrade and sends its HTTP Upgrade
//   only when its window elapses (the ~100 ms boundary window);
// - after a drop it resumes with `Last-Event-ID` (its cursor) — or, in a share of reconnects,
//   without it but with the same token (a "fresh stream"), the note's second variant;
// - a latched client that resumed waits for the server to drive the upgrade: if the server
//   replays nothing (naive), it waits until the idle timeout (the deadlock);
// - after `session-superseded` it discards its cursor and renegotiates: a new session naming
//   the burned token as previous.
// - on `stop` (drain) a live, healthy stream is closed (DELETE); everything in flight finishes
//   first. A stream resumed during the drain counts as healthy only after its first ordinary
//   event, so a boundary resume still plays out (deadlock to the timeout, or renegotiation).
import type { SseEvent } from '@/lib/wire/sse';

export type ClientPhase =
  | 'idle' // between sessions
  | 'opening' // new-session request in flight
  | 'streaming' // SSE live, no upgrade latched
  | 'awaiting-upgrade' // latched on upgrade-accepted, window running
  | 'upgrading' // HTTP Upgrade sent
  | 'websocket' // handshake done
  | 'reconnecting' // connection dropped, waiting to resume
  | 'resuming' // resume request in flight
  | 'stuck' // resumed while latched: waiting for an upgrade the server never drives
  | 'fallback' // second handshake got 409: back on SSE, which the server no longer feeds
  | 'renegotiating' // got session-superseded, about to open a new session
  | 'closing' // DELETE sent
  | 'closed'; // stopped for good

export interface ClientState {
  phase: ClientPhase;
  token: string | null;
  /** Last SSE event id seen on this session's stream(s), as the server wrote it (echoed in Last-Event-ID). */
  cursor: string | null;
  /** The upgrade-accepted event id the client latched on, if any. */
  latched: number | null;
  /** The burned token a renegotiation names. */
  previousToken: string | null;
  /** Drain requested: finish or close the current session, open no new one. */
  stopping: boolean;
}

export type ClientInput =
  | { type: 'start' }
  | { type: 'opened'; token: string }
  | { type: 'resumed' }
  | { type: 'sse'; event: SseEvent }
  | { type: 'reset' }
  | { type: 'reconnect-due'; withLastEventId: boolean }
  | { type: 'renegotiate-due' }
  | { type: 'window-elapsed' }
  | { type: 'handshake'; status: number }
  | { type: 'ws-done' }
  | { type: 'stream-ended' }
  | { type: 'not-found' }
  | { type: 'stop' };

export type SessionEnd = 'closed' | 'websocket' | 'deadlock' | 'superseded' | 'lost';

export type ClientAction =
  | { type: 'open'; previousToken: string | null }
  | { type: 'resume'; token: string; lastEventId: string | null }
  | { type: 'start-window'; eventId: number }
  | { type: 'cancel-window' }
  | { type: 'upgrade'; token: string; negotiation: number }
  | { type: 'websocket-exchange' }
  | { type: 'schedule-reconnect' }
  | { type: 'schedule-renegotiation' }
  | { type: 'close-session'; token: string }
  | { type: 'renegotiated'; token: string; previousToken: string }
  | { type: 'dual-rejected'; token: string }
  | { type: 'session-ended'; token: string | null; how: SessionEnd }
  | { type: 'stopped' };

export interface Step {
  state: ClientState;
  actions: ClientAction[];
}

export function initialClientState(): ClientState {
  return { phase: 'idle', token: null, cursor: null, latched: null, previousToken: null, stopping: false };
}

/** Phases in which the client holds a live SSE connection that the fault injector may reset. */
export function isResettable(state: ClientState): boolean {
  return state.phase === 'streaming' || state.phase === 'awaiting-upgrade';
}

function ended(state: ClientState, how: SessionEnd, extra: ClientAction[] = []): Step {
  const actions: ClientAction[] = [...extra, { type: 'session-ended', token: state.token, how }];
  const next: ClientState = { ...initialClientState(), stopping: state.stopping, phase: state.stopping ? 'closed' : 'idle' };
  if (state.stopping) actions.push({ type: 'stopped' });
  return { state: next, actions };
}

/** On a live stream with no upgrade latched: keep streaming, or close it if draining. */
function live(state: ClientState): Step {
  if (state.stopping && state.token !== null) {
    return { state: { ...state, phase: 'closing' }, actions: [{ type: 'close-session', token: state.token }] };
  }
  return { state: { ...state, phase: 'streaming' }, actions: [] };
}

export function stepClient(state: ClientState, input: ClientInput): Step {
  const same: Step = { state, actions: [] };
  switch (input.type) {
    case 'start':
      if (state.phase !== 'idle' || state.stopping) return same;
      return { state: { ...state, phase: 'opening' }, actions: [{ type: 'open', previousToken: null }] };

    case 'stop':
      if (state.stopping || state.phase === 'closed') return same;
      if (state.phase === 'idle') return { state: { ...state, stopping: true, phase: 'closed' }, actions: [{ type: 'stopped' }] };
      if (state.phase === 'streaming') return live({ ...state, stopping: true });
      // Everything else finishes what it is doing (an upgrade in flight, a deadlock running
      // to its timeout, a renegotiation) and then closes.
      return { state: { ...state, stopping: true }, actions: [] };

    case 'opened': {
      if (state.phase !== 'opening') return same;
      const actions: ClientAction[] = [];
      if (state.previousToken !== null) actions.push({ type: 'renegotiated', token: input.token, previousToken: state.previousToken });
      const step = live({ ...state, token: input.token, cursor: null, latched: null, previousToken: null });
      return { state: step.state, actions: [...actions, ...step.actions] };
    }

    case 'resumed':
      if (state.phase !== 'resuming') return same;
      // A latched client that resumed (its cursor is at/after the upgrade event) waits for
      // the server to drive the upgrade it already promised.
      if (state.latched !== null) return { state: { ...state, phase: 'stuck' }, actions: [] };
      // Draining: the stream was just resumed after a drop, so we don't know yet what the
      // server made of it — a resume at the upgrade boundary may be answered with a (second)
      // `upgrade-accepted` or `session-superseded` right behind the 200. Closing on the 200
      // alone would cut a boundary resume short (a naive one into a zero-length "deadlock"
      // ended by session.closed, a refused one into a DELETE racing the terminal event).
      // Keep streaming; the first ordinary event shows the stream healthy and closes it (onSse).
      return { state: { ...state, phase: 'streaming' }, actions: [] };

    case 'sse':
      return onSse(state, input.event);

    case 'reset':
      if (!isResettable(state) && state.phase !== 'stuck' && state.phase !== 'fallback') return same;
      return {
        state: { ...state, phase: 'reconnecting' },
        actions:
          state.phase === 'awaiting-upgrade'
            ? [{ type: 'cancel-window' }, { type: 'schedule-reconnect' }]
            : [{ type: 'schedule-reconnect' }],
      };

    case 'reconnect-due': {
      if (state.phase !== 'reconnecting' || state.token === null) return same;
      if (input.withLastEventId) {
        return { state: { ...state, phase: 'resuming' }, actions: [{ type: 'resume', token: state.token, lastEventId: state.cursor }] };
      }
      // A fresh stream on the same token: the client forgets its cursor and its latch.
      return {
        state: { ...state, phase: 'resuming', cursor: null, latched: null },
        actions: [{ type: 'resume', token: state.token, lastEventId: null }],
      };
    }

    case 'renegotiate-due':
      if (state.phase !== 'renegotiating') return same;
      return { state: { ...state, phase: 'opening' }, actions: [{ type: 'open', previousToken: state.previousToken }] };

    case 'window-elapsed':
      if (state.phase !== 'awaiting-upgrade' || state.token === null || state.latched === null) return same;
      return { state: { ...state, phase: 'upgrading' }, actions: [{ type: 'upgrade', token: state.token, negotiation: state.latched }] };

    case 'handshake':
      if (state.phase !== 'upgrading' || state.token === null) return same;
      if (input.status === 101) return { state: { ...state, phase: 'websocket' }, actions: [{ type: 'websocket-exchange' }] };
      if (input.status === 409) {
        // The note: the client falls back to SSE while the server believes it is WebSocket-bound.
        return { state: { ...state, phase: 'fallback' }, actions: [{ type: 'dual-rejected', token: state.token }] };
      }
      return ended(state, 'lost');

    case 'ws-done':
      if (state.phase !== 'websocket') return same;
      return ended(state, 'websocket');

    case 'stream-ended':
      // The server ended the SSE stream without a terminal event we act on. After an upgrade
      // that is expected (the stream is superseded by the WebSocket).
      if (state.phase === 'upgrading' || state.phase === 'websocket' || state.phase === 'renegotiating') return same;
      if (state.phase === 'closing') return ended(state, 'closed');
      if (state.phase === 'idle' || state.phase === 'closed' || state.phase === 'reconnecting') return same;
      return ended(state, 'lost');

    case 'not-found':
      if (state.phase !== 'resuming' && state.phase !== 'opening' && state.phase !== 'closing' && state.phase !== 'upgrading') return same;
      return ended(state, state.phase === 'closing' ? 'closed' : 'lost');
  }
}

function onSse(state: ClientState, e: SseEvent): Step {
  const listening =
    state.phase === 'streaming' ||
    state.phase === 'awaiting-upgrade' ||
    state.phase === 'stuck' ||
    state.phase === 'fallback' ||
    state.phase === 'closing' ||
    state.phase === 'upgrading';
  if (!listening) return { state, actions: [] };
  const withCursor = e.id !== null ? { ...state, cursor: e.id } : state;
  switch (e.event) {
    case 'upgrade-accepted': {
      // The extension numbers its negotiations with the event's integer id.
      const negotiation = e.id !== null && /^\d+$/.test(e.id) ? Number(e.id) : null;
      if (negotiation === null) return { state: withCursor, actions: [] };
      if (state.phase === 'streaming') {
        return {
          state: { ...withCursor, phase: 'awaiting-upgrade', latched: negotiation },
          actions: [{ type: 'start-window', eventId: negotiation }],
        };
      }
      return { state: withCursor, actions: [] };
    }
    case 'session-superseded': {
      // Terminal and non-retryable: discard the cursor, renegotiate with a fresh session.
      const next: ClientState = { ...state, phase: 'renegotiating', previousToken: state.token, cursor: null, latched: null };
      const actions: ClientAction[] = [
        ...(state.phase === 'awaiting-upgrade' ? [{ type: 'cancel-window' } as const] : []),
        { type: 'session-ended', token: state.token, how: 'superseded' },
        { type: 'schedule-renegotiation' },
      ];
      return { state: { ...next, token: null }, actions };
    }
    case 'session-timeout':
      // Stuck or fallen back: the idle timeout is what finally ended the wait.
      return ended(state, state.phase === 'stuck' || state.phase === 'fallback' ? 'deadlock' : 'lost');
    case 'session-closed':
      return ended(state, 'closed');
    default:
      // An ordinary event on a live, unlatched stream: the stream is healthy. If draining
      // (only a stream resumed during the drain gets here), close it now.
      if (state.phase === 'streaming') return live(withCursor);
      return { state: withCursor, actions: [] };
  }
}
