// The overview's alarm as state plus recency, with hysteresis. Pure: the overview folds each stats
// response into an AlarmState (decideAlarm) and asks for the level at any instant (alarmLevel),
// so a hold expires on the clock even when no new response arrives (an absolute range with the
// live stream open refetches only when something is ingested).
// - "stuck" (red) as soon as any server has a session deadlocked now;
// - it leaves "stuck" only once no session has been stuck for the hold (measured from the first
//   response that showed none), so it does not flip between red and green on every refresh while
//   sessions get stuck and time out;
// - "warn" (amber) while anything in range went wrong (a deadlock, or a server that answered the
//   boundary naively); never "calm" (green) while a server in range answered naively;
// - "calm" only after a further hold of nothing wrong (leaving red counts as trouble too).
import type { TStatsResponse } from '@/lib/contract/api/stats';

export type AlarmLevel = 'stuck' | 'warn' | 'calm';

export interface ServerAlarmSample {
  server: string;
  /** Sessions deadlocked right now. */
  stuck: number;
  deadlocksInRange: number;
  /** Epoch ms of the newest deadlock start in range. */
  lastDeadlockAt: number | null;
  /** A naive resume, dual negotiation or burned-token reuse in range. */
  naiveInRange: boolean;
}

export interface AlarmSample {
  /** The server's clock when it answered (epoch ms). */
  at: number;
  servers: readonly ServerAlarmSample[];
}

export interface AlarmState {
  /** The level the newest sample shows by itself, before any hold. */
  raw: AlarmLevel;
  /** Whether a server in the newest sample answered naively in range (never green then). */
  naiveInRange: boolean;
  /** Time of the first sample without a stuck session after one with; null while stuck or never stuck. */
  stuckClearedAt: number | null;
  /** Time of the first sample with nothing wrong after one with trouble; null while in trouble or never. */
  troubleClearedAt: number | null;
}

/** A stats response (split=server) as the alarm's sample; the overview, `doorwatch status` and the MCP fleet_status read it alike. */
export function alarmSample(s: TStatsResponse): AlarmSample {
  return {
    at: Date.parse(s.now),
    // The overview always asks for split=server; byServer is what names the servers.
    servers: (s.byServer ?? []).map((b) => ({
      server: b.server,
      // However long ago they began: a client stuck for longer than the range is still stuck.
      stuck: b.stuckNow,
      deadlocksInRange: b.deadlocks,
      lastDeadlockAt: b.lastDeadlockAt ? Date.parse(b.lastDeadlockAt) : null,
      naiveInRange: b.naiveResumes + b.dualNegotiations + b.burnedTokenReuses > 0,
    })),
  };
}

export function rawLevel(sample: AlarmSample): AlarmLevel {
  if (sample.servers.some((s) => s.stuck > 0)) return 'stuck';
  if (sample.servers.some((s) => s.naiveInRange || s.deadlocksInRange > 0)) return 'warn';
  return 'calm';
}

/** Folds one sample into the alarm's memory. `prev` null starts afresh (a new page, range or filter). */
export function decideAlarm(prev: AlarmState | null, sample: AlarmSample): AlarmState {
  const raw = rawLevel(sample);
  return {
    raw,
    naiveInRange: sample.servers.some((s) => s.naiveInRange),
    stuckClearedAt: raw === 'stuck' ? null : prev?.raw === 'stuck' ? sample.at : (prev?.stuckClearedAt ?? null),
    troubleClearedAt: raw !== 'calm' ? null : prev && prev.raw !== 'calm' ? sample.at : (prev?.troubleClearedAt ?? null),
  };
}

/**
 * The level at `now` (the server's clock, epoch ms): a pure function of the folded samples and the
 * time, so a held red steps down when its hold expires, not when the next response happens to arrive.
 */
export function alarmLevel(state: AlarmState, now: number, holdMs: number): AlarmLevel {
  if (state.raw === 'stuck') return 'stuck';
  if (state.stuckClearedAt !== null && now < state.stuckClearedAt + holdMs) return 'stuck';
  if (state.raw === 'warn' || state.naiveInRange) return 'warn';
  // Green waits a full hold after the trouble cleared, and after red ended.
  const redEnded = state.stuckClearedAt === null ? -Infinity : state.stuckClearedAt + holdMs;
  const troubleEnded = Math.max(state.troubleClearedAt ?? -Infinity, redEnded);
  return now < troubleEnded + holdMs ? 'warn' : 'calm';
}

/** When the level held above the raw one started clearing (for "cleared 12 s ago"), else null. */
export function heldSince(state: AlarmState, now: number, holdMs: number): number | null {
  const level = alarmLevel(state, now, holdMs);
  if (level === state.raw) return null;
  return level === 'stuck' ? state.stuckClearedAt : Math.max(state.troubleClearedAt ?? -Infinity, state.stuckClearedAt ?? -Infinity);
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function ago(ms: number): string {
  const s = Math.max(0, ms) / 1000;
  if (s < 90) return `${Math.round(s)} s ago`;
  if (s < 90 * 60) return `${Math.round(s / 60)} min ago`;
  return `${Math.round(s / 3600)} h ago`;
}

function names(list: readonly string[]): string {
  if (list.length <= 2) return list.join(' and ');
  return `${list.slice(0, 2).join(', ')} and ${list.length - 2} more`;
}

/**
 * The alarm's words, naming where: "2 sessions stuck on demo-us-1", then "last deadlock 25 s ago on
 * demo-us-1 · 30 in this range · demo-us-1 resumes naively". `now` is the server's clock as the
 * browser's ticking clock carries it on; `clearedAt`, when the level is held, says since when.
 */
export function alarmText(sample: AlarmSample, now: number, clearedAt: number | null = null): { headline: string; details: string[] } {
  const stuck = sample.servers.filter((s) => s.stuck > 0).sort((a, b) => b.stuck - a.stuck);
  const total = stuck.reduce((n, s) => n + s.stuck, 0);
  // One server: "2 sessions stuck on a"; several: "3 sessions stuck: 2 on a, 1 on b".
  const headline =
    total === 0
      ? '0 stuck now'
      : stuck.length === 1
        ? `${plural(total, 'session', 'sessions')} stuck on ${stuck[0].server}`
        : `${plural(total, 'session', 'sessions')} stuck: ${stuck.map((s) => `${s.stuck} on ${s.server}`).join(', ')}`;
  const details: string[] = [];
  if (clearedAt !== null) details.push(`cleared ${ago(now - clearedAt)}`);
  const last = sample.servers.filter((s) => s.lastDeadlockAt !== null).sort((a, b) => b.lastDeadlockAt! - a.lastDeadlockAt!)[0];
  if (last) details.push(`last deadlock ${ago(now - last.lastDeadlockAt!)} on ${last.server}`);
  const inRange = sample.servers.reduce((n, s) => n + s.deadlocksInRange, 0);
  details.push(inRange === 0 ? 'no deadlock in this range' : `${inRange} in this range`);
  const naive = sample.servers.filter((s) => s.naiveInRange).map((s) => s.server);
  if (naive.length > 0) details.push(`${names(naive)} ${naive.length === 1 ? 'resumes' : 'resume'} naively`);
  return { headline, details };
}
