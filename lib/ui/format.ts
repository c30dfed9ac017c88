/** Display formatting shared by every page. Times honour the UTC/local toggle. */
import { wallClock, zoneOffsetMinutes, type TimeZone } from '@/lib/time/zone';
import type { DeadlockStatus } from '@/lib/contract/summary';

/**
 * The zone times are shown in: 'utc', or the operator's own zone — by IANA name once known
 * (lib/ui/display-zone.ts hands the server and the hydrating browser the same one), 'local' for
 * this runtime's own zone.
 */
export type TimeZoneMode = TimeZone;

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

const parts = wallClock;

export function toMs(value: string | number | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return value;
  const t = Date.parse(value);
  return Number.isNaN(t) ? null : t;
}

/** 2026-11-29 10:04:05 (date and time). */
export function fmtDateTime(value: string | number | null | undefined, tz: TimeZoneMode, withMs = false): string {
  const ms = toMs(value);
  if (ms === null) return '—';
  const p = parts(ms, tz);
  const base = `${p.y}-${pad(p.mo)}-${pad(p.d)} ${pad(p.h)}:${pad(p.mi)}:${pad(p.s)}`;
  return withMs ? `${base}.${pad(p.ms, 3)}` : base;
}

/** 10:04:05.123 */
export function fmtTime(value: string | number | null | undefined, tz: TimeZoneMode, withMs = true): string {
  const ms = toMs(value);
  if (ms === null) return '—';
  const p = parts(ms, tz);
  const base = `${pad(p.h)}:${pad(p.mi)}:${pad(p.s)}`;
  return withMs ? `${base}.${pad(p.ms, 3)}` : base;
}

/** Axis tick: HH:MM for short ranges, MM-DD HH:MM for longer ones. */
export function fmtTick(ms: number, tz: TimeZoneMode, spanMs: number): string {
  const p = parts(ms, tz);
  if (spanMs > 2 * 86_400_000) return `${pad(p.mo)}-${pad(p.d)} ${pad(p.h)}:${pad(p.mi)}`;
  return `${pad(p.h)}:${pad(p.mi)}`;
}

/** "UTC", or "local (UTC+05:30)": the zone's offset now. */
export function tzLabel(tz: TimeZoneMode, nowMs = Date.now()): string {
  if (tz === 'utc') return 'UTC';
  const off = zoneOffsetMinutes(nowMs, tz);
  const sign = off >= 0 ? '+' : '-';
  return `local (UTC${sign}${pad(Math.floor(Math.abs(off) / 60))}:${pad(Math.abs(off) % 60)})`;
}

const int = new Intl.NumberFormat('en-US');

export function fmtInt(n: number | null | undefined): string {
  return n === null || n === undefined ? '—' : int.format(Math.round(n));
}

export function fmtPct(rate: number | null | undefined, digits = 2): string {
  if (rate === null || rate === undefined || Number.isNaN(rate)) return '—';
  return `${(rate * 100).toFixed(digits)}%`;
}

/** 48 ms, 1.24 s, 5 m 00 s, 2 h 03 m */
export function fmtDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || Number.isNaN(ms)) return '—';
  const neg = ms < 0;
  const a = Math.abs(ms);
  let out: string;
  if (a < 1000) out = `${Math.round(a)} ms`;
  else if (a < 60_000) out = `${(a / 1000).toFixed(a < 10_000 ? 2 : 1)} s`;
  else if (a < 3_600_000) out = `${Math.floor(a / 60_000)} m ${pad(Math.floor((a % 60_000) / 1000))} s`;
  else if (a < 86_400_000) out = `${Math.floor(a / 3_600_000)} h ${pad(Math.floor((a % 3_600_000) / 60_000))} m`;
  else out = `${Math.floor(a / 86_400_000)} d ${pad(Math.floor((a % 86_400_000) / 3_600_000))} h`;
  return neg ? `−${out}` : out;
}

/**
 * A latency measured in whole milliseconds: 0 means under a millisecond, which "0 ms" would
 * misread as "instant" or "not measured".
 */
export function fmtLatency(ms: number | null | undefined): string {
  return ms !== null && ms !== undefined && ms >= 0 && ms < 1 ? '<1 ms' : fmtDuration(ms);
}

export function shortToken(token: string, max = 18): string {
  return token.length <= max ? token : `${token.slice(0, max - 7)}…${token.slice(-6)}`;
}

export const FLAG_LABELS: Record<string, string> = {
  boundary: 'boundary',
  refused: 'refused',
  naive_resume: 'naive resume',
  dual_negotiation: 'dual negotiation',
  deadlock: 'deadlock',
  renegotiated: 'renegotiated',
  burned_token_reuse: 'burned token reuse',
  // Resumption health (servers with or without the upgrade).
  lossy_resume: 'lossy resume',
  idle_resume: 'idle resume',
  resume_conflict: 'second resume refused (409)',
  resume_after_end: 'resume after end (404)',
  unknown_cursor: 'unknown resume point (400)',
  abandoned: 'abandoned',
};

/** One line per flag in plain words, for a newcomer (the flag filters' and the servers' tips). */
export const FLAG_HINTS: Record<string, string> = {
  boundary: 'The client resumed after the server had offered the WebSocket upgrade (upgrade.accepted): the moment that decides.',
  refused: 'At that moment the server refused the resume (session-superseded), the correct answer: the client starts over.',
  naive_resume: 'At that moment the server accepted the resume and handed back an idle SSE stream: the client may wait until its timeout.',
  dual_negotiation: 'A reconnect without Last-Event-ID got a second upgrade offer for the same session.',
  deadlock: 'Client and server each waited for the other (an idle stream until the idle timeout).',
  renegotiated: 'The client opened a new session with a fresh token after this one.',
  burned_token_reuse: 'A token the server had already refused was used again.',
  lossy_resume: 'A resume replayed fewer events than the server still held after Last-Event-ID: events were lost.',
  idle_resume: 'A resume answered 200 but sent nothing, while the server held events for it.',
  resume_conflict: 'A second client tried to resume a stream that was still connected; the server said no (409 Conflict).',
  resume_after_end: 'A resume came after the session had ended; the server answered 404 Not Found.',
  unknown_cursor: 'A resume named an event id (Last-Event-ID) the server did not know; it answered 400 Bad Request.',
  abandoned: 'The client left without closing the session; the server ended it as abandoned.',
};

export const STATE_LABELS: Record<string, string> = {
  sse_active: 'SSE active',
  upgrade_pending: 'upgrade pending',
  websocket_bound: 'WebSocket bound',
  terminated: 'terminated',
};

/** The session list's deadlock filter (DEADLOCK_STATUSES), in the words of the list's own chips. */
export const DEADLOCK_STATUS_LABELS: Record<DeadlockStatus, string> = {
  ongoing: 'stuck now',
  ended: 'ended',
  end_unreported: 'end unreported',
};

/** Tone for a flag chip: bad outcomes are loud, the good one is calm. */
export function flagTone(flag: string): 'bad' | 'warn' | 'good' | 'neutral' {
  switch (flag) {
    case 'deadlock':
    case 'naive_resume':
    case 'dual_negotiation':
    case 'burned_token_reuse':
    case 'lossy_resume':
    case 'idle_resume':
      return 'bad';
    case 'boundary':
    case 'abandoned':
    case 'resume_conflict':
    case 'resume_after_end':
    case 'unknown_cursor':
      return 'warn';
    case 'refused':
    case 'renegotiated':
      return 'good';
    default:
      return 'neutral';
  }
}

/** Route params may arrive encoded or not depending on the path; decode once, safely. */
export function safeDecode(v: string): string {
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
}

/** "3 s ago", "2 min ago", "5 h ago", "4 d ago" (a time ahead of `nowMs`, from clock skew, reads "just now"). */
export function fmtAgo(value: string | number | null | undefined, nowMs: number): string {
  const ms = toMs(value);
  if (ms === null) return '—';
  const s = Math.floor((nowMs - ms) / 1000);
  if (s < 1) return 'just now';
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ago`;
  return `${Math.floor(s / 86_400)} d ago`;
}

/** "1,234 sessions match"; a capped count reads "10,000+ sessions match". */
export function fmtMatchCount(total: number, capped: boolean, noun: readonly [singular: string, plural: string]): string {
  return `${fmtInt(total)}${capped ? '+' : ''} ${total === 1 && !capped ? noun[0] : noun[1]} ${total === 1 && !capped ? 'matches' : 'match'}`;
}
