// The soak's arithmetic, pure: least-squares slopes of the samples (per minute) and ingest p95 per
// window compared with the first window (issue 28: within 20 % of the first five minutes).
import { summarizeLatencies } from '@/lib/metrics/percentiles';

/** Least-squares slope of y over x (x in ms) in units per minute; null under two points. */
export function slopePerMinute(points: readonly { x: number; y: number }[]): number | null {
  if (points.length < 2) return null;
  const n = points.length;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.x - mx) * (p.y - my);
    den += (p.x - mx) ** 2;
  }
  return den === 0 ? 0 : (num / den) * 60_000;
}

export interface TimedLatency {
  /** When the answer came (ms since the epoch). */
  at: number;
  ms: number;
}

export interface WindowFigures {
  /** Minutes since the load started: [from, to). */
  fromMin: number;
  toMin: number;
  requests: number;
  p50: number | null;
  p95: number | null;
  /** p95 over the first window's p95. */
  ratio: number | null;
}

const r1 = (x: number | null) => (x === null ? null : Math.round(x * 10) / 10);

/** p50/p95 of the answers in each `windowMin`-minute window since `startMs` (a last, partial window counts if it holds a third of one). */
export function latencyWindows(answers: readonly TimedLatency[], startMs: number, endMs: number, windowMin: number): WindowFigures[] {
  const windowMs = windowMin * 60_000;
  const out: WindowFigures[] = [];
  let first: number | null = null;
  for (let from = startMs; from < endMs; from += windowMs) {
    const to = Math.min(endMs, from + windowMs);
    if (to - from < windowMs / 3 && out.length > 0) break;
    const ms = answers.filter((a) => a.at >= from && a.at < to).map((a) => a.ms);
    const s = summarizeLatencies(ms);
    first ??= s.p95;
    out.push({
      fromMin: Math.round(((from - startMs) / 60_000) * 10) / 10,
      toMin: Math.round(((to - startMs) / 60_000) * 10) / 10,
      requests: ms.length,
      p50: r1(s.p50),
      p95: r1(s.p95),
      ratio: s.p95 === null || !first ? null : Math.round((s.p95 / first) * 1000) / 1000,
    });
  }
  return out;
}

/** The 20 % rule: every later window's p95 at most 1.2 × the first window's. */
export function p95WithinRule(windows: readonly WindowFigures[], allowed = 1.2): boolean {
  return windows.slice(1).every((w) => w.ratio === null || w.ratio <= allowed);
}
