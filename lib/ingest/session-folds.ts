// Which fold each session a batch touches gets (issue 26). A session's row keeps its fold
// (lib/boundary/fold-state.ts); when the batch's new events of a session all come after the last
// one folded, the fold is carried on with them and its timeline is not read. Only these sessions
// are folded again from their whole stored timeline: a late event (one that sorts before the last
// folded), a row written before folds were kept or of another fold version, and a session that a
// probe's token turns synthetic (its earlier events leave the counters, so they must be read).
import type { DoorwatchEvent } from '@/lib/contract/event';
import { timestampMs } from '@/lib/contract/timestamp';
import { decodeFoldState, extendFoldState, foldTimeline, type FoldState } from '@/lib/boundary/fold-state';
import type { LoadedBatch, SessionRef } from '@/lib/store/ingest-statements';
import { sessionKey, type SessionKey } from '@/lib/store/session-key';

export interface SessionFold {
  state: FoldState;
  firstEventAt: number;
}

/** A session that turns synthetic with this batch: stored before a probe recorded its token. */
export const turnsSynthetic = (loaded: LoadedBatch, key: SessionKey): boolean => {
  const old = loaded.oldRows.get(key);
  return loaded.synthetic.has(key) && old !== undefined && Number(old.synthetic) === 0;
};

const firstAt = (events: readonly DoorwatchEvent[]): number => Math.min(...events.map((e) => timestampMs(e.at)));

/** The folds carried on from stored state, and the sessions whose timelines must be read to fold them. */
export function carryFolds(loaded: LoadedBatch): { folds: Map<SessionKey, SessionFold>; reload: SessionRef[] } {
  const folds = new Map<SessionKey, SessionFold>();
  const reload: SessionRef[] = [];
  for (const ref of loaded.touched) {
    const key = sessionKey(ref.server, ref.token);
    const fresh = loaded.fresh.get(key) ?? [];
    const old = loaded.oldRows.get(key);
    if (!old) {
      // Events and their session row are written in one transaction: no row, no stored events.
      const state = foldTimeline(fresh);
      if (state) folds.set(key, { state, firstEventAt: firstAt(fresh) });
      continue;
    }
    const stored = turnsSynthetic(loaded, key) ? null : decodeFoldState(old.foldState);
    const state = stored && extendFoldState(stored, fresh);
    if (state) folds.set(key, { state, firstEventAt: Number(old.firstEventAt) });
    else reload.push(ref);
  }
  return { folds, reload };
}

/** Folds the reloaded sessions from their whole stored timelines (this batch's events included) into `folds`. */
export function redoFolds(
  loaded: LoadedBatch,
  reload: readonly SessionRef[],
  timelines: ReadonlyMap<SessionKey, DoorwatchEvent[]>,
  folds: Map<SessionKey, SessionFold>,
): void {
  for (const ref of reload) {
    const key = sessionKey(ref.server, ref.token);
    const timeline = timelines.get(key);
    const state = timeline ? foldTimeline(timeline) : null;
    if (!timeline || !state) continue;
    const old = loaded.oldRows.get(key);
    // Retention pruned this session's timeline (lib/retention) and it has no fold to carry on: its
    // stored summary is the truth; recomputing from what is left would overwrite it and skew the rollups.
    if (old && timeline.length - (loaded.fresh.get(key)?.length ?? 0) < Number(old.eventCount)) continue;
    folds.set(key, { state, firstEventAt: firstAt(timeline) });
  }
}
