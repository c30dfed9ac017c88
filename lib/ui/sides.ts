/**
 * Display side of the door rule: labels, and the adapter from a session detail's timeline
 * (`GET /api/v1/servers/{server}/sessions/{token}`) to the one rule, `deriveSides` in
 * `lib/boundary/sides.ts`, which decides which side client and server were on.
 */
import { INITIAL_SIDES, deriveSides, type Side, type SideStep } from '@/lib/boundary/sides';
import { ZEvent, type DoorwatchEvent } from '@/lib/contract/event';

export const SIDE_LABELS: Record<Side, string> = {
  sse: 'SSE side',
  ws: 'WebSocket side',
  burned: 'burned',
  closed: 'closed',
};

/** One timeline event as the session detail returns it (already in timeline order). */
export interface SideEvent {
  id: string;
  type: string;
  at: string;
  seq: number | null;
  data: Record<string, unknown>;
}

/**
 * The sides after each event of a session detail's timeline: one step per event, index-aligned with `events`. Stored events were validated at ingest, so
 * each parses back into a contract event; one that does not (it cannot move the fold) keeps
 * the previous sides.
 */
export function timelineSides(events: readonly SideEvent[]): SideStep[] {
  const parsed: DoorwatchEvent[] = [];
  for (const e of events) {
    const r = ZEvent.safeParse({
      id: e.id,
      token: 'timeline',
      type: e.type,
      at: e.at,
      ...(e.seq === null ? {} : { seq: e.seq }),
      data: e.data,
    });
    if (r.success) parsed.push(r.data);
  }
  const byId = new Map(deriveSides(parsed).map((s) => [s.eventId, s]));
  let prev: SideStep = {
    eventId: '',
    ...INITIAL_SIDES,
    door: false,
    dual: false,
    disagree: false,
    naiveAnswer: false,
    boundaryEntry: false,
    refusedAnswer: false,
  };
  return events.map((e) => {
    const step = byId.get(e.id) ?? {
      ...prev,
      eventId: e.id,
      door: false,
      dual: false,
      naiveAnswer: false,
      boundaryEntry: false,
      refusedAnswer: false,
    };
    prev = step;
    return step;
  });
}
