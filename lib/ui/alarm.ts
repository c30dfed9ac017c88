// The overview's alarm as state plus recency, with hysteresis. Pure: the overview feeds it one
// sample per stats response and keeps the returned state for the next one.
// - "stuck" (red) as soon as any server has a session deadlocked now;
// - it leaves "stuck" only after HOLD_MS without a stuck session, so it does not flip between red
//   and green on every refresh while sessions get stuck and time out;
// - "warn" (amber) while anything in range went wrong (a deadlock, or a server that answered the
//   boundary naively); never "calm" (green) while a server in range answered naively;
// - "calm" only after HOLD_MS of nothing wrong.
export type AlarmLevel = 'stuck' | 'warn' | 'calm';

/** How long a condition must have cleared before the alarm steps down. */
export const HOLD_MS = 30_000;

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
  at: number;
  servers: readonly ServerAlarmSample[];
}

export interface AlarmState {
  level: AlarmLevel;
  /** Last sample time with a stuck session. */
  lastStuckAt: number | null;
  /** Last sample time with anything wrong (stuck, deadlock or naive answer in range). */
  lastTroubleAt: number | null;
}

export function rawLevel(sample: AlarmSample): AlarmLevel {
  if (sample.servers.some((s) => s.stuck > 0)) return 'stuck';
  if (sample.servers.some((s) => s.naiveInRange || s.deadlocksInRange > 0)) return 'warn';
  return 'calm';
}

export function decideAlarm(prev: AlarmState | null, sample: AlarmSample): AlarmState {
  const raw = rawLevel(sample);
  const lastStuckAt = raw === 'stuck' ? sample.at : (prev?.lastStuckAt ?? null);
  // Leaving red counts as trouble too: the all-clear waits a full hold after red ends.
  const lastTroubleAt = raw !== 'calm' || prev?.level === 'stuck' ? sample.at : (prev?.lastTroubleAt ?? null);
  const held = (t: number | null) => t !== null && sample.at - t < HOLD_MS;
  let level: AlarmLevel = raw;
  // Stepping down waits for the hold; stepping up is immediate.
  if (raw !== 'stuck' && prev?.level === 'stuck' && held(lastStuckAt)) level = 'stuck';
  else if (raw === 'calm' && prev && prev.level !== 'calm' && held(lastTroubleAt)) level = 'warn';
  // Whatever the history, a naive answer in range is never an all-clear.
  if (level === 'calm' && sample.servers.some((s) => s.naiveInRange)) level = 'warn';
  return { level, lastStuckAt, lastTroubleAt };
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
 * demo-us-1 · 30 in this range · demo-us-1 resumes naively". `now` is the browser's ticking clock.
 */
export function alarmText(sample: AlarmSample, now: number): { headline: string; details: string[] } {
  const stuck = sample.servers.filter((s) => s.stuck > 0).sort((a, b) => b.stuck - a.stuck);
  const total = stuck.reduce((n, s) => n + s.stuck, 0);
  const headline =
    total === 0
      ? '0 stuck now'
      : `${plural(total, 'session', 'sessions')} stuck on ${stuck.map((s, i) => (i === 0 || stuck.length === 1 ? s.server : `${s.stuck} on ${s.server}`)).join(', ')}`;
  const details: string[] = [];
  const last = sample.servers.filter((s) => s.lastDeadlockAt !== null).sort((a, b) => b.lastDeadlockAt! - a.lastDeadlockAt!)[0];
  if (last) details.push(`last deadlock ${ago(now - last.lastDeadlockAt!)} on ${last.server}`);
  const inRange = sample.servers.reduce((n, s) => n + s.deadlocksInRange, 0);
  details.push(inRange === 0 ? 'no deadlock in this range' : `${inRange} in this range`);
  const naive = sample.servers.filter((s) => s.naiveInRange).map((s) => s.server);
  if (naive.length > 0) details.push(`${names(naive)} ${naive.length === 1 ? 'resumes' : 'resume'} naively`);
  return { headline, details };
}
