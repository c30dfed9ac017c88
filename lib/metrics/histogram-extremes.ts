// The exact smallest and largest latency of a latency-histogram cell ("minMs", "maxMs" beside its
// count), so the overview's min and max stay exact when its percentiles come from the buckets.
// Adding a latency is an exact MIN/MAX upsert, with no read. Removing one (a late event changed a
// session's latency, or a probe's token turned a session synthetic) cannot be undone by MIN/MAX:
// the cell is recomputed from its Session rows, but only when a removed latency may have been the
// cell's min or max, i.e. when it lies outside the latencies the same delta adds to the cell. A
// session re-counted with the same latency (every event of a session re-derives its contributions)
// removes and adds the same value: no recompute, and nothing to write.

/** The latencies one delta adds to and removes from one histogram cell. */
export interface CellExtremes {
  addMin: number;
  addMax: number;
  removeMin: number;
  removeMax: number;
}

export function noteSample(extremes: Map<string, CellExtremes>, key: string, sample: number, sign: 1 | -1): void {
  let e = extremes.get(key);
  if (!e) extremes.set(key, (e = { addMin: Infinity, addMax: -Infinity, removeMin: Infinity, removeMax: -Infinity }));
  if (sign > 0) {
    e.addMin = Math.min(e.addMin, sample);
    e.addMax = Math.max(e.addMax, sample);
  } else {
    e.removeMin = Math.min(e.removeMin, sample);
    e.removeMax = Math.max(e.removeMax, sample);
  }
}

/** A removed latency may have been the stored min or max, and no added one stands in for it. */
export const needsRecompute = (e: CellExtremes): boolean => e.removeMin < e.addMin || e.removeMax > e.addMax;

/**
 * Whether the cell's stored min/max can change: an added latency beyond the removed ones (which
 * were in the cell, so within its stored range), or a recompute.
 */
export const extremesMatter = (e: CellExtremes): boolean => needsRecompute(e) || e.addMin < e.removeMin || e.addMax > e.removeMax;

/** Merges b into a (a quarter cell gathers its minutes' and servers' cells). */
export function mergeExtremes(a: CellExtremes, b: CellExtremes): void {
  a.addMin = Math.min(a.addMin, b.addMin);
  a.addMax = Math.max(a.addMax, b.addMax);
  a.removeMin = Math.min(a.removeMin, b.removeMin);
  a.removeMax = Math.max(a.removeMax, b.removeMax);
}

/** The min/max to upsert: null when nothing was added. */
export const addedRange = (e: CellExtremes | undefined): [number | null, number | null] =>
  e && e.addMin <= e.addMax ? [e.addMin, e.addMax] : [null, null];
