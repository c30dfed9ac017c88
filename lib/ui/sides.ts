/**
 * Which side of the one-way door (`upgrade.accepted`) client and server were on after
 * each event of one token's timeline. Derived for display from the events themselves:
 *
 *   sse     — SSE stream, no upgrade promised (or the server handed back an idle stream)
 *   ws      — past the door: upgrade promised / awaiting the handshake / WebSocket-bound
 *   burned  — the token was refused with session-superseded; only a new token goes on
 *   closed  — timed out or closed without a refusal
 *
 * A naive resume leaves the client on the WebSocket side (waiting for a handshake)
 * while the server is back on the SSE side: the disagreement that deadlocks.
 */
export type Side = 'sse' | 'ws' | 'burned' | 'closed';

export interface SideEvent {
  type: string;
  data: Record<string, unknown>;
}

export interface SideStep {
  client: Side;
  server: Side;
  /** This event is the door (an upgrade.accepted). */
  door: boolean;
  /** A second upgrade.accepted while one is pending (dual negotiation). */
  dual: boolean;
  /** Client and server disagree after this event. */
  disagree: boolean;
}

export const SIDE_LABELS: Record<Side, string> = {
  sse: 'SSE side',
  ws: 'WebSocket side',
  burned: 'burned',
  closed: 'closed',
};

export function deriveSides(events: readonly SideEvent[]): SideStep[] {
  let client: Side = 'sse';
  let server: Side = 'sse';
  let pendingDoor: number | null = null; // eventId of the pending upgrade.accepted
  let bound = false;
  const out: SideStep[] = [];
  for (const e of events) {
    let door = false;
    let dual = false;
    switch (e.type) {
      case 'session.opened':
        client = 'sse';
        server = 'sse';
        break;
      case 'upgrade.accepted': {
        door = true;
        dual = pendingDoor !== null;
        if (pendingDoor === null) pendingDoor = typeof e.data.eventId === 'number' ? e.data.eventId : -1;
        bound = false;
        server = 'ws';
        client = 'ws';
        break;
      }
      case 'upgrade.completed':
        bound = true;
        pendingDoor = null;
        client = 'ws';
        server = 'ws';
        break;
      case 'upgrade.rejected':
        // The second handshake is refused (409): the client falls back to SSE while the
        // server still believes the session is WebSocket-bound.
        client = 'sse';
        server = 'ws';
        break;
      case 'resume.requested': {
        const last = e.data.lastEventId;
        if (typeof last === 'number' && pendingDoor !== null && last >= pendingDoor) client = 'ws';
        else if (last === null || last === undefined) client = pendingDoor !== null || bound ? 'sse' : client;
        else client = 'sse';
        break;
      }
      case 'resume.refused':
        client = 'burned';
        server = 'burned';
        pendingDoor = null;
        break;
      case 'resume.accepted':
        // Accepting a resume puts the server on the SSE side; a client that already
        // passed the door stays there, waiting for a handshake that will not come.
        server = 'sse';
        if (pendingDoor === null) client = 'sse';
        break;
      case 'session.timeout':
      case 'session.closed':
        if (client !== 'burned') client = 'closed';
        if (server !== 'burned') server = 'closed';
        pendingDoor = null;
        break;
    }
    out.push({ client, server, door, dual, disagree: client !== server });
  }
  return out;
}
