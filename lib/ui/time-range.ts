/**
 * Time ranges as they live in the URL: Grafana-style relative expressions
 * (`now`, `now-15m`, `now-24h`, `now-7d`) or absolute RFC 3339 instants.
 * The API accepts both forms, so the URL value is passed through unchanged;
 * the browser resolves them only to draw axes and pick a bucket size.
 */

export const DEFAULT_FROM = 'now-1h';
export const DEFAULT_TO = 'now';

export interface RangePreset {
  label: string;
  short: string;
  from: string;
  to: string;
  key: string;
}

export const RANGE_PRESETS: readonly RangePreset[] = [
  { label: 'Last 15 minutes', short: '15m', from: 'now-15m', to: 'now', key: '1' },
  { label: 'Last 1 hour', short: '1h', from: 'now-1h', to: 'now', key: '2' },
  { label: 'Last 24 hours', short: '24h', from: 'now-24h', to: 'now', key: '3' },
  { label: 'Last 7 days', short: '7d', from: 'now-7d', to: 'now', key: '4' },
];

const UNIT_MS: Record<string, number> = {
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
};

const RELATIVE = /^now(?:-(\d+)([smhdw]))?$/;

export function isRelative(expr: string): boolean {
  return RELATIVE.test(expr.trim());
}

/** Epoch ms for a range expression, or null when it is neither relative nor a parseable instant. */
export function resolveTime(expr: string, nowMs: number = Date.now()): number | null {
  const s = expr.trim();
  const m = RELATIVE.exec(s);
  if (m) return m[1] ? nowMs - Number(m[1]) * UNIT_MS[m[2]] : nowMs;
  if (!/^\d{4}-\d{2}-\d{2}T/.test(s)) return null;
  const t = Date.parse(s);
  return Number.isNaN(t) ? null : t;
}

export function isValidTimeExpr(expr: string): boolean {
  return resolveTime(expr) !== null;
}

export interface ResolvedRange {
  fromMs: number;
  toMs: number;
}

export function resolveRange(from: string, to: string, nowMs: number = Date.now()): ResolvedRange {
  const f = resolveTime(from, nowMs) ?? nowMs - 3_600_000;
  const t = resolveTime(to, nowMs) ?? nowMs;
  return f <= t ? { fromMs: f, toMs: t } : { fromMs: t, toMs: f };
}

export function presetFor(from: string, to: string): RangePreset | undefined {
  return RANGE_PRESETS.find((p) => p.from === from && p.to === to);
}

/** Canonical instant for the URL: UTC, millisecond precision (what the API's RFC 3339 parser wants). */
export function isoMs(epochMs: number): string {
  return new Date(epochMs).toISOString();
}

/** Short human label of a range, e.g. "Last 1 hour" or "2026-11-29 10:00 → 11:00 UTC". */
export function describeRange(from: string, to: string, fmt: (ms: number) => string): string {
  const preset = presetFor(from, to);
  if (preset) return preset.label;
  if (isRelative(from) && to === 'now') return `Since ${from}`;
  const r = resolveRange(from, to);
  const a = fmt(r.fromMs);
  const b = fmt(r.toMs);
  // Same day: write the date once ("2026-11-29 19:53 → 19:54").
  return a.slice(0, 10) === b.slice(0, 10) && b.length > 11 ? `${a} → ${b.slice(11)}` : `${a} → ${b}`;
}

/** Shift an absolute window by a fraction of its width (negative = earlier). */
export function shiftRange(from: string, to: string, fraction: number, nowMs = Date.now()): { from: string; to: string } {
  const r = resolveRange(from, to, nowMs);
  const delta = Math.round((r.toMs - r.fromMs) * fraction);
  return { from: isoMs(r.fromMs + delta), to: isoMs(r.toMs + delta) };
}

/** Zoom out around the centre (factor 2 = twice as wide). */
export function zoomOutRange(from: string, to: string, factor = 2, nowMs = Date.now()): { from: string; to: string } {
  const r = resolveRange(from, to, nowMs);
  const width = r.toMs - r.fromMs;
  const centre = r.fromMs + width / 2;
  const half = (width * factor) / 2;
  const end = Math.min(Math.round(centre + half), nowMs);
  return { from: isoMs(Math.round(centre - half)), to: isoMs(end) };
}

/** Freeze a (possibly relative) range into absolute instants: a link that shows the same data later. */
export function freezeRange(from: string, to: string, nowMs = Date.now()): { from: string; to: string } {
  const r = resolveRange(from, to, nowMs);
  return { from: isoMs(r.fromMs), to: isoMs(r.toMs) };
}

export const BUCKETS: readonly { expr: string; ms: number }[] = [
  { expr: '1m', ms: 60_000 },
  { expr: '5m', ms: 300_000 },
  { expr: '15m', ms: 900_000 },
  { expr: '30m', ms: 1_800_000 },
  { expr: '1h', ms: 3_600_000 },
  { expr: '3h', ms: 10_800_000 },
  { expr: '6h', ms: 21_600_000 },
  { expr: '12h', ms: 43_200_000 },
  { expr: '1d', ms: 86_400_000 },
];

/** A bucket size giving at most ~`target` points across the range. */
export function pickBucket(range: ResolvedRange, target = 120): { expr: string; ms: number } {
  const width = Math.max(range.toMs - range.fromMs, 60_000);
  return BUCKETS.find((b) => width / b.ms <= target) ?? BUCKETS[BUCKETS.length - 1];
}

export function bucketMs(expr: string | undefined | null): number | null {
  if (!expr) return null;
  const known = BUCKETS.find((b) => b.expr === expr);
  if (known) return known.ms;
  const m = /^(\d+)([smhdw])$/.exec(expr);
  return m ? Number(m[1]) * UNIT_MS[m[2]] : null;
}

/**
 * What a person types into the absolute range fields: a relative expression, an
 * RFC 3339 instant, or "YYYY-MM-DD HH:MM[:SS]" read in the displayed time zone.
 * Returns the URL form (relative kept, absolute as UTC ISO) or null.
 */
export function parseUserTime(input: string, tz: 'utc' | 'local'): string | null {
  const s = input.trim();
  if (!s) return null;
  if (isRelative(s)) return s;
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/.exec(s);
  if (m) {
    const [y, mo, d, h, mi, sec, ms] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? '0', (m[7] ?? '0').padEnd(3, '0')].map(Number);
    const t = tz === 'utc' ? Date.UTC(y, mo - 1, d, h, mi, sec, ms) : new Date(y, mo - 1, d, h, mi, sec, ms).getTime();
    return Number.isNaN(t) ? null : isoMs(t);
  }
  const t = resolveTime(s);
  return t === null ? null : isoMs(t);
}
