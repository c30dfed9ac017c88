// The session list of "stuck now" (the overview's alarm and each server's card): the ongoing deadlocks,
// as the stats count them (probe sessions left out), from when the longest wait began if that was
// before the range: a client stuck since before the range is stuck in it too.
import type { ParamPatch } from './url-state';

export function stuckSessionsParams(stuckSince: string | null, rangeFrom: string): ParamPatch {
  const before = stuckSince !== null && Date.parse(stuckSince) < Date.parse(rangeFrom);
  return { deadlock: 'ongoing', synthetic: 'exclude', ...(before && { from: stuckSince }) };
}
