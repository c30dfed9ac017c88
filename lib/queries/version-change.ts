// When a server's behaviour changed with a version, as the verdict says it: "naive since v2.3.1:
// first naive resume 14:02, 3 minutes after v2.3.1 first reported". Pure: a function of the
// server's version rows (lib/store/server-versions.ts) and each version's first naive resume.
import type { TVersionChange } from '@/lib/contract/api/versions';
import { toIsoMs } from '@/lib/contract/timestamp';

export interface VersionFacts {
  version: string;
  firstSeenAt: number;
  sessions: number;
  naiveResumes: number;
  dualNegotiations: number;
  burnedReuses: number;
  refusals: number;
}

const naiveCount = (v: VersionFacts) => v.naiveResumes + v.dualNegotiations + v.burnedReuses;
/** A version that showed naive behaviour, one that showed only refusals, or one that proved nothing. */
const behaviour = (v: VersionFacts): 'naive' | 'refuses' | null => (naiveCount(v) > 0 ? 'naive' : v.refusals > 0 ? 'refuses' : null);

/** HH:MM (UTC), with the date when it is not the day of `nowMs`. */
function clock(ms: number, nowMs: number): string {
  const iso = toIsoMs(ms);
  const sameDay = iso.slice(0, 10) === toIsoMs(nowMs).slice(0, 10);
  return `${sameDay ? '' : `${iso.slice(0, 10)} `}${iso.slice(11, 16)}`;
}

function after(ms: number): string {
  const min = Math.round(Math.max(0, ms) / 60_000);
  if (min < 1) return 'less than a minute';
  if (min < 120) return `${min} minute${min === 1 ? '' : 's'}`;
  const h = Math.round(min / 60);
  return h < 48 ? `${h} hours` : `${Math.round(h / 24)} days`;
}

/**
 * The latest change of behaviour between consecutive versions that proved something (by first
 * report; versions with neither naive sessions nor refusals are skipped), or null when the
 * versions agree or fewer than two proved anything. `firstNaiveAt`: each version's earliest naive
 * resume (epoch ms), when it had one.
 */
export function versionChange(
  versions: readonly VersionFacts[],
  firstNaiveAt: ReadonlyMap<string, number>,
  nowMs: number,
): TVersionChange | null {
  const proved = [...versions]
    .filter((v) => behaviour(v) !== null)
    .sort((a, b) => a.firstSeenAt - b.firstSeenAt || (a.version < b.version ? -1 : 1));
  for (let i = proved.length - 1; i > 0; i--) {
    const cur = proved[i];
    const prev = proved[i - 1];
    if (behaviour(cur) === behaviour(prev)) continue;
    const seen = toIsoMs(cur.firstSeenAt);
    if (behaviour(cur) === 'naive') {
      const first = firstNaiveAt.get(cur.version) ?? null;
      const when =
        first === null
          ? `${naiveCount(cur)} naive session${naiveCount(cur) === 1 ? '' : 's'}, first reported ${clock(cur.firstSeenAt, nowMs)}`
          : `first naive resume ${clock(first, nowMs)}, ${after(first - cur.firstSeenAt)} after ${cur.version} first reported`;
      return {
        kind: 'became_naive',
        version: cur.version,
        previousVersion: prev.version,
        versionFirstSeenAt: seen,
        firstNaiveResumeAt: first === null ? null : toIsoMs(first),
        text: `naive since ${cur.version}: ${when} (${prev.version} refused)`,
      };
    }
    return {
      kind: 'stopped_naive',
      version: cur.version,
      previousVersion: prev.version,
      versionFirstSeenAt: seen,
      firstNaiveResumeAt: null,
      text: `refuses since ${cur.version} (first reported ${clock(cur.firstSeenAt, nowMs)}): ${prev.version} resumed naively`,
    };
  }
  return null;
}
