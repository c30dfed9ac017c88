/**
 * Resumption health from a token's timeline. Pure, and from the same fold as the boundary
 * summary (session-state.ts), so delivery order never matters.
 */
import type { DoorwatchEvent } from '@/lib/contract/event';
import { REJECTION_FLAGS, type ResumptionFlag, type ResumptionHealth } from '@/lib/contract/resumption';
import { toIsoMs } from '@/lib/contract/timestamp';
import { deriveSessionFacts, type SessionFacts } from './session-state';

export function resumptionOf(f: SessionFacts): ResumptionHealth {
  const flags = new Set<ResumptionFlag>();
  if (f.abandonedAt !== null) flags.add('abandoned');
  if (f.idleResumeCount > 0) flags.add('idle_resume');
  if (f.lossyResumeCount > 0) flags.add('lossy_resume');
  for (const status of f.rejectedStatuses) {
    const flag = REJECTION_FLAGS[status];
    if (flag) flags.add(flag);
  }
  return {
    flags: [...flags].sort(),
    checkedResumes: f.checkedResumeCount,
    lossyResumes: f.lossyResumeCount,
    idleResumes: f.idleResumeCount,
    rejectedResumes: f.rejectedResumeCount,
    abandonedAt: f.abandonedAt === null ? null : toIsoMs(f.abandonedAt),
  };
}

/** @param timeline events of ONE token, any order, repeats allowed. */
export function summarizeResumption(timeline: readonly DoorwatchEvent[]): ResumptionHealth {
  return resumptionOf(deriveSessionFacts(timeline));
}
