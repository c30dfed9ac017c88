/**
 * Total order over one token's events: `at` (as epoch ms, so offsets compare
 * correctly), then `seq` (absent sorts before any value), then `id`, then the
 * canonical JSON of the whole event. Because the order is total, sorting is
 * independent of input order, which is what makes summaries idempotent.
 */
import type { DoorwatchEvent } from '@/lib/contract/event';
import { timestampMs } from '@/lib/contract/timestamp';
import { canonicalJson } from './canonical-json';

/** Code-unit comparison; localeCompare would make order depend on the host locale. */
function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * What the order looks at before content: the time (epoch ms), `seq` (absent first), the event id
 * (code units). The session page sorts stored events by this alone (stored ids are unique per token).
 */
export interface TimelineKey {
  atMs: number;
  seq?: number | null;
  id: string;
}

export function compareTimelineKeys(a: TimelineKey, b: TimelineKey): number {
  if (a.atMs !== b.atMs) return a.atMs - b.atMs;
  const sa = a.seq ?? -1;
  const sb = b.seq ?? -1;
  if (sa !== sb) return sa - sb;
  return compareStrings(a.id, b.id);
}

interface Keyed extends TimelineKey {
  event: DoorwatchEvent;
  /** The canonical JSON, computed only when a tie reaches it (copies of one id): rare, and costly. */
  json?: string;
}

const keyed = (event: DoorwatchEvent): Keyed => ({ event, atMs: timestampMs(event.at), seq: event.seq, id: event.id });

const jsonOf = (k: Keyed): string => (k.json ??= canonicalJson(k.event));

function compareKeyed(a: Keyed, b: Keyed): number {
  return compareTimelineKeys(a, b) || compareStrings(jsonOf(a), jsonOf(b));
}

/** Compare two events by the timeline order. */
export function compareEvents(a: DoorwatchEvent, b: DoorwatchEvent): number {
  return compareKeyed(keyed(a), keyed(b));
}

/**
 * Sort and dedupe by `id`. When copies of an id differ, the one that sorts
 * first is kept (earliest at/seq, then smallest canonical JSON) — a choice
 * that depends only on the set of copies, never on arrival order.
 */
export function orderTimeline(events: readonly DoorwatchEvent[]): DoorwatchEvent[] {
  const sorted = events.map(keyed).sort(compareKeyed);
  const seen = new Set<string>();
  const out: DoorwatchEvent[] = [];
  for (const k of sorted) {
    if (seen.has(k.event.id)) continue;
    seen.add(k.event.id);
    out.push(k.event);
  }
  return out;
}
