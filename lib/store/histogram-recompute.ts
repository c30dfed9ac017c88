// Recomputing a latency-histogram cell's exact min/max ("minMs", "maxMs") from its Session rows,
// for the rare delta that removes a latency which may have been the cell's min or max (a late
// event moved a session's latency, or a probe's token turned a session synthetic): MIN/MAX
// cannot be undone by an upsert. Adding latencies never comes here (lib/metrics/histogram-extremes.ts),
// so ingest of new events reads nothing more. The Session filters are the ones the cells were
// counted with (lib/metrics/rollup-contributions.ts): non-probe sessions, refusals at "refusedAt",
// renegotiations at "successorOpenedAt", the latency within the bucket's values.
import type { SqlExecutor } from '@/lib/db/sql';
import { histogramBucketRange, type LatencyMetric } from '@/lib/metrics/latency-histogram';
import { MINUTE_MS } from '@/lib/metrics/rollup-contributions';
import { mergeExtremes, needsRecompute, type CellExtremes } from '@/lib/metrics/histogram-extremes';
import { TABLE_SQL } from './tables';
import { sessionServerTerm } from './session-server-term';

/** A histogram cell: per server and minute ("LatencyHistogram"), or (server null) per quarter over all servers. */
export interface HistogramCellRef {
  minute: number;
  server: string | null;
  metric: LatencyMetric;
  bucket: number;
}

const QUARTER_SPAN_MS = 15 * MINUTE_MS;

/** Gathers a delta's extremes per minute cell and per quarter cell; lists the cells to recompute. */
export class ExtremesByCell {
  private readonly cells = new Map<string, { ref: HistogramCellRef; e: CellExtremes }>();

  note(cell: HistogramCellRef & { server: string }, quarter: number, e: CellExtremes): void {
    this.add(cell, e);
    this.add({ minute: quarter, server: null, metric: cell.metric, bucket: cell.bucket }, e);
  }

  private add(ref: HistogramCellRef, e: CellExtremes): void {
    const k = `${ref.server ?? ''}|${ref.server === null ? 'q' : 'm'}|${ref.minute}|${ref.metric}|${ref.bucket}`;
    const have = this.cells.get(k);
    if (have) mergeExtremes(have.e, e);
    else this.cells.set(k, { ref, e: { ...e } });
  }

  /** Minute cells first, then quarters, each in key order (the order the upserts locked them). */
  toRecompute(): HistogramCellRef[] {
    return [...this.cells.values()]
      .filter((c) => needsRecompute(c.e))
      .map((c) => c.ref)
      .sort(
        (a, b) =>
          Number(a.server === null) - Number(b.server === null) ||
          a.minute - b.minute ||
          (a.server ?? '').localeCompare(b.server ?? '') ||
          a.metric.localeCompare(b.metric) ||
          a.bucket - b.bucket,
      );
  }
}

const SESSION_FILTER: Record<LatencyMetric, { at: string; value: string; extra: string }> = {
  refusal: { at: '"refusedAt"', value: '"refusalLatencyMs"', extra: ` AND "boundaryOutcome" = 'refused'` },
  renegotiation: { at: '"successorOpenedAt"', value: '"renegotiationLatencyMs"', extra: '' },
};

/** Sets each cell's min/max to those of the sessions it counts now (null when none is left). */
export async function recomputeHistogramExtremes(tx: SqlExecutor, cells: readonly HistogramCellRef[]): Promise<void> {
  for (const c of cells) {
    const f = SESSION_FILTER[c.metric];
    const [lo, hi] = histogramBucketRange(c.bucket);
    const span = c.server === null ? QUARTER_SPAN_MS : MINUTE_MS;
    const server = sessionServerTerm(tx.provider, c.server);
    const where = `"synthetic" = 0 AND ${f.at} >= ? AND ${f.at} < ? AND ${f.value} >= ? AND ${f.value} <= ?${f.extra}${server.text}`;
    const params = [c.minute, c.minute + span, lo, hi, ...server.params];
    const [table, key, keyParams] =
      c.server === null
        ? [TABLE_SQL.latencyHistogramQuarter, '"minute" = ? AND "metric" = ? AND "bucket" = ?', [c.minute, c.metric, c.bucket]]
        : [
            TABLE_SQL.latencyHistogram,
            '"minute" = ? AND "server" = ? AND "metric" = ? AND "bucket" = ?',
            [c.minute, c.server, c.metric, c.bucket],
          ];
    await tx.execute(
      `UPDATE ${table} SET "minMs" = (SELECT MIN(${f.value}) FROM ${TABLE_SQL.session} WHERE ${where}),
                           "maxMs" = (SELECT MAX(${f.value}) FROM ${TABLE_SQL.session} WHERE ${where})
        WHERE ${key}`,
      [...params, ...params, ...keyParams],
    );
  }
}
