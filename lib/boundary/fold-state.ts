/**
 * A session's fold, kept with its summary so the next batch can carry it on (issue 26). Ingest used
 * to re-read and re-fold the whole stored timeline of every session a batch touched, so a session
 * delivered in many batches cost O(n²) in all. The stored state is the fold's facts plus the order
 * key of the last event folded: events that sort after that key extend it exactly as a fold of the
 * whole timeline would (the fold is a left fold over the timeline order); any event that sorts at
 * or before it means the timeline must be folded again from the start.
 */
import type { DoorwatchEvent } from '@/lib/contract/event';
import { timestampMs } from '@/lib/contract/timestamp';
import { initialFacts, stepFacts, type SessionFacts } from './session-state';
import { compareTimelineKeys, orderTimeline, type TimelineKey } from './timeline-order';

/**
 * The encoding's version. Bump it whenever `stepFacts` or `SessionFacts` change meaning: stored
 * states of another version are ignored (the session is folded from its timeline once more), never
 * carried on with rules they were not built by. tests/unit/fold-state.test.ts pins the fold's
 * output over a fixed corpus and fails with a reminder when the fold changes without a bump.
 */
export const FOLD_VERSION = 1;

export interface FoldState {
  facts: SessionFacts;
  /** The last event folded, by the timeline order. */
  last: TimelineKey;
}

type SetField = 'negotiationsSeen' | 'conflictsSeen' | 'rejectedStatuses';
type Encoded = Omit<SessionFacts, SetField> & { negotiationsSeen: number[]; conflictsSeen: string[]; rejectedStatuses: number[] };

const keyOf = (e: DoorwatchEvent): TimelineKey => ({ atMs: timestampMs(e.at), seq: e.seq ?? null, id: e.id });

/** JSON text for the "foldState" column; sets as sorted arrays so equal folds encode equally. */
export function encodeFoldState(state: FoldState): string {
  const f = state.facts;
  const facts: Encoded = {
    ...f,
    negotiationsSeen: [...f.negotiationsSeen].sort((a, b) => a - b),
    conflictsSeen: [...f.conflictsSeen].sort(),
    rejectedStatuses: [...f.rejectedStatuses].sort((a, b) => a - b),
  };
  return JSON.stringify({ v: FOLD_VERSION, last: { atMs: state.last.atMs, seq: state.last.seq ?? null, id: state.last.id }, facts });
}

/** The stored state, or null when there is none, it is of another version, or it does not parse. */
export function decodeFoldState(text: string | null | undefined): FoldState | null {
  if (!text) return null;
  try {
    const raw = JSON.parse(text) as { v?: unknown; last?: TimelineKey; facts?: Encoded };
    if (raw.v !== FOLD_VERSION || !raw.last || !raw.facts) return null;
    const e = raw.facts;
    const facts: SessionFacts = {
      ...initialFacts(),
      ...e,
      negotiationsSeen: new Set(e.negotiationsSeen),
      conflictsSeen: new Set(e.conflictsSeen),
      rejectedStatuses: new Set(e.rejectedStatuses),
    };
    return { facts, last: raw.last };
  } catch {
    return null;
  }
}

/** Folds a whole timeline (any order, copies of an id folded once) into its state; null when empty. */
export function foldTimeline(timeline: readonly DoorwatchEvent[]): FoldState | null {
  const ordered = orderTimeline(timeline);
  if (ordered.length === 0) return null;
  const facts = initialFacts();
  for (const e of ordered) stepFacts(facts, e);
  return { facts, last: keyOf(ordered[ordered.length - 1]) };
}

/**
 * Carries a stored state on with new events of the same session (ids not folded before), or null
 * when one of them sorts at or before the last event folded: a late event, whose place in the
 * timeline changes what came after it, so the caller folds the whole timeline instead.
 * `state` is not modified.
 */
export function extendFoldState(state: FoldState, events: readonly DoorwatchEvent[]): FoldState | null {
  const ordered = orderTimeline(events);
  if (ordered.length === 0) return state;
  if (compareTimelineKeys(keyOf(ordered[0]), state.last) <= 0) return null;
  // stepFacts replaces the fold's object fields and adds to its sets: a copy of the sets is enough.
  const f = state.facts;
  const facts: SessionFacts = {
    ...f,
    negotiationsSeen: new Set(f.negotiationsSeen),
    conflictsSeen: new Set(f.conflictsSeen),
    rejectedStatuses: new Set(f.rejectedStatuses),
  };
  for (const e of ordered) stepFacts(facts, e);
  return { facts, last: keyOf(ordered[ordered.length - 1]) };
}
