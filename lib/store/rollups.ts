// The rollup tables, written only as additive deltas so concurrent writers and late events compose:
// - "Rollup": per-server, per-minute counters (columns = ROLLUP_COLUMNS of lib/metrics);
// - "RollupQuarter": the same counters per server and quarter hour (the sum of its 15 minutes), so
//   a day's overview reads 96 cells per server instead of 1,440;
// - "LatencyHistogram": per server and minute, how many latencies fell in each log-scale bucket
//   (lib/metrics/latency-histogram.ts), for the percentiles;
// - "LatencyHistogramQuarter": the same buckets per quarter hour over ALL servers (no server column),
//   so the overview's percentiles read at most ~96 × buckets-in-use cells a day per metric however
//   many sessions fell in it (per-minute, per-server cells are about as sparse as the sessions).
// One delta (lib/metrics/rollup-contributions.ts) feeds all four in the writer's transaction.
import { insertRows, type ColumnSpec, type RowsInsert, type SqlExecutor } from '@/lib/db/sql';
import { parseHistogramKey, type HistogramKey, type LatencyMetric } from '@/lib/metrics/latency-histogram';
import { addedRange } from '@/lib/metrics/histogram-extremes';
import { ROLLUP_COLUMNS, ROLLUP_MS_COLUMNS, type RollupColumn, type RollupDelta } from '@/lib/metrics/rollup-contributions';
import { TABLE, TABLE_SQL, sumColumn } from './tables';
import { addCellText } from './histogram-cell-text';
import { ExtremesByCell, recomputeHistogramExtremes, type HistogramCellRef } from './histogram-recompute';

/** A quarter hour: the cell of "RollupQuarter". */
export const QUARTER_MS = 15 * 60_000;
export const quarterOf = (epochMs: number): number => Math.floor(epochMs / QUARTER_MS) * QUARTER_MS;

const ROLLUP_COLUMN_SET: ReadonlySet<string> = new Set(ROLLUP_COLUMNS);

/** The key and the given counters of "Rollup" (and "RollupQuarter"), typed for bulk writes (lib/db/sql.ts insertMany). */
export function rollupColumnSpecs(columns: readonly RollupColumn[]): ColumnSpec[] {
  return [
    { name: 'server', type: 'text' },
    { name: 'minute', type: 'bigint' },
    ...columns.map((name): ColumnSpec => ({ name, type: ROLLUP_MS_COLUMNS.includes(name) ? 'bigint' : 'int' })),
  ];
}

/** The ON CONFLICT clause that adds a new cell's counters to the stored ones. */
export function rollupAddTail(columns: readonly RollupColumn[], table: string = TABLE.rollup): string {
  return `ON CONFLICT ("server","minute") DO UPDATE SET ${columns.map((c) => `"${c}" = "${table}"."${c}" + excluded."${c}"`).join(',')}`;
}

/** Cell keeps its exact min/max: an added latency widens them, never a read (lib/metrics/histogram-extremes.ts). */
const extremesTail = (table: string) =>
  `"minMs" = CASE WHEN excluded."minMs" IS NULL OR (${table}."minMs" IS NOT NULL AND ${table}."minMs" <= excluded."minMs") THEN ${table}."minMs" ELSE excluded."minMs" END,` +
  ` "maxMs" = CASE WHEN excluded."maxMs" IS NULL OR (${table}."maxMs" IS NOT NULL AND ${table}."maxMs" >= excluded."maxMs") THEN ${table}."maxMs" ELSE excluded."maxMs" END`;

export const HISTOGRAM_COLUMN_SPECS: readonly ColumnSpec[] = [
  { name: 'minute', type: 'bigint' },
  { name: 'server', type: 'text' },
  { name: 'metric', type: 'text' },
  { name: 'bucket', type: 'int' },
  { name: 'count', type: 'int' },
  { name: 'minMs', type: 'bigint' },
  { name: 'maxMs', type: 'bigint' },
];
export const HISTOGRAM_ADD_TAIL = `ON CONFLICT ("minute","server","metric","bucket") DO UPDATE SET "count" = ${TABLE_SQL.latencyHistogram}."count" + excluded."count", ${extremesTail(TABLE_SQL.latencyHistogram)}`;

/** "LatencyHistogramQuarter": no server column (all servers summed), "minute" = the quarter's first minute. */
export const HISTOGRAM_QUARTER_COLUMN_SPECS: readonly ColumnSpec[] = [
  { name: 'minute', type: 'bigint' },
  { name: 'metric', type: 'text' },
  { name: 'bucket', type: 'int' },
  { name: 'count', type: 'int' },
  { name: 'minMs', type: 'bigint' },
  { name: 'maxMs', type: 'bigint' },
];
export const HISTOGRAM_QUARTER_ADD_TAIL = `ON CONFLICT ("minute","metric","bucket") DO UPDATE SET "count" = ${TABLE_SQL.latencyHistogramQuarter}."count" + excluded."count", ${extremesTail(TABLE_SQL.latencyHistogramQuarter)}`;

type Cell = { server: string; minute: number; values: Partial<Record<RollupColumn, number>> };
type MinMax = [minMs: number | null, maxMs: number | null];
export type HistogramRow = [minute: number, server: string, metric: LatencyMetric, bucket: number, count: number, ...MinMax];
export type HistogramQuarterRow = [quarter: number, metric: LatencyMetric, bucket: number, count: number, ...MinMax];

/**
 * The "LatencyHistogramQuarter" cells of a delta's histogram rows: summed over servers and the
 * quarter's minutes (min/max over them), zero sums without a new min/max dropped, in key order
 * (quarter, metric, bucket). A function of the delta alone and additive, so any delivery order
 * adds up to the same cells, as for the minutes.
 */
export function histogramQuarterRows(histogram: readonly HistogramRow[]): HistogramQuarterRow[] {
  const sums = new Map<string, HistogramQuarterRow>();
  const lower = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.min(a, b));
  const upper = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));
  for (const [minute, , metric, bucket, count, minMs, maxMs] of histogram) {
    const quarter = quarterOf(minute);
    const k = `${quarter}|${metric}|${bucket}`;
    const row = sums.get(k);
    if (row) {
      row[3] += count;
      row[4] = lower(row[4], minMs);
      row[5] = upper(row[5], maxMs);
    } else sums.set(k, [quarter, metric, bucket, count, minMs, maxMs]);
  }
  return [...sums.values()]
    .filter((r) => r[3] !== 0 || r[4] !== null)
    .sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0) || a[2] - b[2]);
}

/**
 * A delta's cells split by table: minute counters, quarter counters, histogram rows (with the
 * min/max they add), each in key order; and the histogram cells whose min/max must be recomputed.
 */
export function splitRollupDelta(delta: RollupDelta): {
  minutes: Cell[];
  quarters: Cell[];
  histogram: HistogramRow[];
  recompute: HistogramCellRef[];
} {
  const minutes: Cell[] = [];
  const quarters = new Map<string, Cell>();
  const histogram: HistogramRow[] = [];
  const extremes = new ExtremesByCell();
  for (const cell of delta.values()) {
    const counters: Cell['values'] = {};
    let any = false;
    for (const [key, value] of Object.entries(cell.values)) {
      if (!value || !ROLLUP_COLUMN_SET.has(key)) continue;
      counters[key as RollupColumn] = value;
      any = true;
    }
    const histogramKeys = new Set([...Object.keys(cell.values), ...(cell.extremes?.keys() ?? [])].filter((k) => !ROLLUP_COLUMN_SET.has(k)));
    for (const key of histogramKeys) {
      const h = parseHistogramKey(key);
      if (!h) throw new Error(`unknown rollup counter ${key}`);
      const e = cell.extremes?.get(key as HistogramKey);
      const count = cell.values[key as HistogramKey] ?? 0;
      if (count === 0 && !e) continue;
      histogram.push([cell.minute, cell.server, h.metric, h.bucket, count, ...addedRange(e)]);
      if (e) extremes.note({ minute: cell.minute, server: cell.server, metric: h.metric, bucket: h.bucket }, quarterOf(cell.minute), e);
    }
    if (!any) continue;
    minutes.push({ server: cell.server, minute: cell.minute, values: counters });
    const q = quarterOf(cell.minute);
    const qk = `${cell.server}|${q}`;
    let quarter = quarters.get(qk);
    if (!quarter) quarters.set(qk, (quarter = { server: cell.server, minute: q, values: {} }));
    for (const [c, v] of Object.entries(counters) as [RollupColumn, number][]) quarter.values[c] = (quarter.values[c] ?? 0) + v;
  }
  const byServerMinute = (a: Cell, b: Cell) => (a.server < b.server ? -1 : a.server > b.server ? 1 : a.minute - b.minute);
  histogram.sort(
    (a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0) || (a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0) || a[3] - b[3],
  );
  return {
    minutes: minutes.sort(byServerMinute),
    quarters: [...quarters.values()].sort(byServerMinute),
    histogram,
    recompute: extremes.toRecompute(),
  };
}

function cellsInsert(table: string, cells: readonly Cell[]): RowsInsert {
  const used = new Set<RollupColumn>();
  for (const cell of cells) for (const c of Object.keys(cell.values) as RollupColumn[]) used.add(c);
  const cols = [...used].sort();
  return {
    table,
    columns: rollupColumnSpecs(cols),
    rows: cells.map((cell) => [cell.server, cell.minute, ...cols.map((c) => cell.values[c] ?? 0)]),
    tail: rollupAddTail(cols, table),
  };
}

/**
 * A delta as its upserts: "Rollup", "RollupQuarter", "LatencyHistogram", "LatencyHistogramQuarter"
 * (the empty ones left out), to run in this order. Cells in key order, tables always in the same
 * order: concurrent transactions (other tokens, other instances) lock shared rows in the same
 * order, so they queue instead of deadlocking. Columns a cell does not touch add 0. The quarter
 * histogram's rows are shared by every server's transactions; on PostgreSQL all four run inside
 * the batch's last statement (lib/store/ingest-statements.ts), so they are held until commit
 * whatever their place in the list. `recompute`: the histogram cells whose min/max a removed
 * latency may have held, to recompute once the Session rows are written (recomputeHistogramExtremes).
 */
export function rollupWrites(delta: RollupDelta): { inserts: RowsInsert[]; recompute: HistogramCellRef[] } {
  const { minutes, quarters, histogram, recompute } = splitRollupDelta(delta);
  const out: RowsInsert[] = [];
  if (minutes.length > 0) out.push(cellsInsert(TABLE.rollup, minutes));
  if (quarters.length > 0) out.push(cellsInsert(TABLE.rollupQuarter, quarters));
  if (histogram.length > 0)
    out.push({ table: TABLE.latencyHistogram, columns: HISTOGRAM_COLUMN_SPECS, rows: histogram, tail: HISTOGRAM_ADD_TAIL });
  const histogramQuarters = histogramQuarterRows(histogram);
  if (histogramQuarters.length > 0)
    out.push({
      table: TABLE.latencyHistogramQuarter,
      columns: HISTOGRAM_QUARTER_COLUMN_SPECS,
      rows: histogramQuarters,
      tail: HISTOGRAM_QUARTER_ADD_TAIL,
    });
  return { inserts: out, recompute };
}

/** The delta's upserts, then the min/max recomputes; after the Session rows of the batch are written. */
export async function applyRollupDelta(tx: SqlExecutor, delta: RollupDelta): Promise<void> {
  const { inserts, recompute } = rollupWrites(delta);
  for (const insert of inserts) await insertRows(tx, insert);
  await recomputeHistogramExtremes(tx, recompute);
}

/** All-time sums of the given counters per server. */
export async function rollupTotalsByServer<C extends RollupColumn>(
  sql: SqlExecutor,
  columns: readonly C[],
): Promise<Map<string, Record<C, number>>> {
  const rows = await sql.query<Record<string, unknown>>(
    `SELECT "server", ${columns.map(sumColumn).join(', ')} FROM ${TABLE_SQL.rollupQuarter} GROUP BY "server"`,
  );
  return new Map(rows.map((r) => [String(r.server), Object.fromEntries(columns.map((c) => [c, Number(r[c] ?? 0)])) as Record<C, number>]));
}

export type BucketRow = Record<string, number> & { b: number; server: string };

/**
 * Counter sums per (series bucket, server) over [fromMs, toMs): whole quarter hours from
 * "RollupQuarter", the minutes before the first and after the last whole quarter from "Rollup".
 * Quarter cells are used only when the series bucket is a whole number of quarters (then a
 * quarter never straddles two buckets). The same (b, server) may come twice: callers add. Without
 * `byServer`, server is '' (all servers summed).
 */
export async function rollupBucketSums(
  sql: SqlExecutor,
  q: { fromMs: number; toMs: number; bucketMs: number; server: string | null; byServer: boolean },
  columns: readonly RollupColumn[],
): Promise<BucketRow[]> {
  const serverSql = q.server === null ? '' : ' AND "server" = ?';
  const serverParam = q.server === null ? [] : [q.server];
  // GROUP BY 1 (ordinal): PostgreSQL would not match a repeated expression with another placeholder.
  // Per server only when asked: shipping a row per (bucket, server) costs more than reading the cells.
  const read = (table: string, fromMs: number, toMs: number) =>
    fromMs >= toMs
      ? Promise.resolve([] as BucketRow[])
      : sql.query<BucketRow>(
          `SELECT CAST("minute" / CAST(? AS BIGINT) AS BIGINT) AS "b", ${q.byServer ? '"server"' : `'' AS "server"`}, ${columns.map(sumColumn).join(', ')}
             FROM ${table} WHERE "minute" >= ? AND "minute" < ?${serverSql}
            GROUP BY 1${q.byServer ? ', 2' : ''}`,
          [q.bucketMs, fromMs, toMs, ...serverParam],
        );
  const qFrom = Math.ceil(q.fromMs / QUARTER_MS) * QUARTER_MS;
  const qTo = Math.floor(q.toMs / QUARTER_MS) * QUARTER_MS;
  if (q.bucketMs % QUARTER_MS !== 0 || qFrom >= qTo) return read(TABLE_SQL.rollup, q.fromMs, q.toMs);
  // Three independent reads, issued together (on PostgreSQL, on pooled connections at once).
  const parts = await Promise.all([
    read(TABLE_SQL.rollup, q.fromMs, qFrom),
    read(TABLE_SQL.rollupQuarter, qFrom, qTo),
    read(TABLE_SQL.rollup, qTo, q.toMs),
  ]);
  return parts.flat();
}

/** Histogram counts of one metric: series bucket number (start ÷ bucketMs) → latency bucket → count. */
export type HistogramCells = Map<number, Map<number, number>>;
/** The exact [min, max] latency of one metric's non-empty cells per series bucket number. */
export type HistogramExtents = Map<number, [min: number, max: number]>;
export type HistogramSums = Record<LatencyMetric, HistogramCells> & { extents: Record<LatencyMetric, HistogramExtents> };

/**
 * Histogram counts per (series bucket, metric, latency bucket) over [fromMs, toMs), summed.
 * For all servers, whole quarter hours come from "LatencyHistogramQuarter" and only the minutes at
 * the edges from "LatencyHistogram" (as rollupBucketSums does for the counters), when the series
 * bucket is a whole number of quarters; for one server, or other series buckets, the per-minute
 * cells. One statement either way (one round trip; empty edge ranges select nothing).
 */
export async function histogramSums(
  sql: SqlExecutor,
  q: { fromMs: number; toMs: number; bucketMs: number; server: string | null },
  metrics: readonly LatencyMetric[],
): Promise<HistogramSums> {
  const out: HistogramSums = { refusal: new Map(), renegotiation: new Map(), extents: { refusal: new Map(), renegotiation: new Map() } };
  if (metrics.length === 0) return out;
  const metricSql = `"metric" IN (${metrics.map(() => '?').join(',')})`;
  const qFrom = Math.ceil(q.fromMs / QUARTER_MS) * QUARTER_MS;
  const qTo = Math.floor(q.toMs / QUARTER_MS) * QUARTER_MS;
  const perMinute = q.server !== null || q.bucketMs % QUARTER_MS !== 0 || qFrom >= qTo;
  // Rows per (series bucket, metric) with their cells as "bucket:count,…" text, summed per bucket
  // here: a day's ~11k cells cost ~1 µs each as result rows (a JS object and a string per row), a
  // few hundred rows of text far less (10M events over 7 days, last 24 h: 22 → 7 ms on SQLite).
  const cell = `CAST("bucket" AS TEXT) || ':' || CAST("count" AS TEXT)`;
  const joined = sql.provider === 'postgresql' ? `string_agg(${cell}, ',')` : `group_concat(${cell}, ',')`;
  // The exact extent of the cells that count something (a late event may have emptied a cell).
  const extent = `MIN(CASE WHEN "count" > 0 THEN "minMs" END) AS "lo", MAX(CASE WHEN "count" > 0 THEN "maxMs" END) AS "hi"`;
  const grouped = (table: string, groupBy: string, serverSql = '') =>
    `SELECT CAST("minute" / CAST(? AS BIGINT) AS BIGINT) AS "b", "metric", ${joined} AS "cells", ${extent} FROM ${table}
      WHERE "minute" >= ? AND "minute" < ? AND ${metricSql}${serverSql} GROUP BY ${groupBy}`;
  // The quarter table is grouped by its own key ("minute", "metric": one row per quarter and metric),
  // which SQLite reads in primary-key order without sorting; grouped by the computed series bucket it
  // sorted every cell first (3.8 → 2.0 ms at 10M events, last 24 h). Rows of one series bucket
  // (several quarters, or an edge and quarters) are merged below.
  const [text, params] = perMinute
    ? [
        grouped(TABLE_SQL.latencyHistogram, '1, 2', q.server === null ? '' : ' AND "server" = ?'),
        [q.bucketMs, q.fromMs, q.toMs, ...metrics, ...(q.server === null ? [] : [q.server])],
      ]
    : [
        [
          grouped(TABLE_SQL.latencyHistogram, '1, 2'),
          grouped(TABLE_SQL.latencyHistogramQuarter, '"minute", "metric"'),
          grouped(TABLE_SQL.latencyHistogram, '1, 2'),
        ].join(' UNION ALL '),
        [q.bucketMs, q.fromMs, qFrom, ...metrics, q.bucketMs, qFrom, qTo, ...metrics, q.bucketMs, qTo, q.toMs, ...metrics],
      ];
  const rows = await sql.query<{ b: unknown; metric: string; cells: string | null; lo: unknown; hi: unknown }>(text, params);
  for (const r of rows) {
    const b = Number(r.b);
    const metric = r.metric as LatencyMetric;
    let counts = out[metric].get(b);
    if (!counts) out[metric].set(b, (counts = new Map()));
    addCellText(counts, r.cells ?? '');
    if (r.lo === null || r.hi === null) continue;
    const have = out.extents[metric].get(b);
    const [lo, hi] = [Number(r.lo), Number(r.hi)];
    out.extents[metric].set(b, have ? [Math.min(have[0], lo), Math.max(have[1], hi)] : [lo, hi]);
  }
  return out;
}
