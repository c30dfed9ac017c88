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
import { parseHistogramKey, type LatencyMetric } from '@/lib/metrics/latency-histogram';
import { ROLLUP_COLUMNS, ROLLUP_MS_COLUMNS, type RollupColumn, type RollupDelta } from '@/lib/metrics/rollup-contributions';
import { TABLE, TABLE_SQL, sumColumn } from './tables';
import { addCellText } from './histogram-cell-text';

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

export const HISTOGRAM_COLUMN_SPECS: readonly ColumnSpec[] = [
  { name: 'minute', type: 'bigint' },
  { name: 'server', type: 'text' },
  { name: 'metric', type: 'text' },
  { name: 'bucket', type: 'int' },
  { name: 'count', type: 'int' },
];
export const HISTOGRAM_ADD_TAIL = `ON CONFLICT ("minute","server","metric","bucket") DO UPDATE SET "count" = ${TABLE_SQL.latencyHistogram}."count" + excluded."count"`;

/** "LatencyHistogramQuarter": no server column (all servers summed), "minute" = the quarter's first minute. */
export const HISTOGRAM_QUARTER_COLUMN_SPECS: readonly ColumnSpec[] = [
  { name: 'minute', type: 'bigint' },
  { name: 'metric', type: 'text' },
  { name: 'bucket', type: 'int' },
  { name: 'count', type: 'int' },
];
export const HISTOGRAM_QUARTER_ADD_TAIL = `ON CONFLICT ("minute","metric","bucket") DO UPDATE SET "count" = ${TABLE_SQL.latencyHistogramQuarter}."count" + excluded."count"`;

type Cell = { server: string; minute: number; values: Partial<Record<RollupColumn, number>> };
export type HistogramRow = [minute: number, server: string, metric: LatencyMetric, bucket: number, count: number];
export type HistogramQuarterRow = [quarter: number, metric: LatencyMetric, bucket: number, count: number];

/**
 * The "LatencyHistogramQuarter" cells of a delta's histogram rows: summed over servers and the
 * quarter's minutes, zero sums dropped, in key order (quarter, metric, bucket). A function of the
 * delta alone and additive, so any delivery order adds up to the same cells, as for the minutes.
 */
export function histogramQuarterRows(histogram: readonly HistogramRow[]): HistogramQuarterRow[] {
  const sums = new Map<string, HistogramQuarterRow>();
  for (const [minute, , metric, bucket, count] of histogram) {
    const quarter = quarterOf(minute);
    const k = `${quarter}|${metric}|${bucket}`;
    const row = sums.get(k);
    if (row) row[3] += count;
    else sums.set(k, [quarter, metric, bucket, count]);
  }
  return [...sums.values()]
    .filter((r) => r[3] !== 0)
    .sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0) || a[2] - b[2]);
}

/** A delta's cells split by table: minute counters, quarter counters, histogram rows, each in key order. */
export function splitRollupDelta(delta: RollupDelta): { minutes: Cell[]; quarters: Cell[]; histogram: HistogramRow[] } {
  const minutes: Cell[] = [];
  const quarters = new Map<string, Cell>();
  const histogram: HistogramRow[] = [];
  for (const cell of delta.values()) {
    const counters: Cell['values'] = {};
    let any = false;
    for (const [key, value] of Object.entries(cell.values)) {
      if (!value) continue;
      if (ROLLUP_COLUMN_SET.has(key)) {
        counters[key as RollupColumn] = value;
        any = true;
        continue;
      }
      const h = parseHistogramKey(key);
      if (!h) throw new Error(`unknown rollup counter ${key}`);
      histogram.push([cell.minute, cell.server, h.metric, h.bucket, value]);
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
  return { minutes: minutes.sort(byServerMinute), quarters: [...quarters.values()].sort(byServerMinute), histogram };
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
 * whatever their place in the list.
 */
export function rollupInserts(delta: RollupDelta): RowsInsert[] {
  const { minutes, quarters, histogram } = splitRollupDelta(delta);
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
  return out;
}

export async function applyRollupDelta(tx: SqlExecutor, delta: RollupDelta): Promise<void> {
  for (const insert of rollupInserts(delta)) await insertRows(tx, insert);
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
): Promise<Record<LatencyMetric, HistogramCells>> {
  const out: Record<LatencyMetric, HistogramCells> = { refusal: new Map(), renegotiation: new Map() };
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
  const grouped = (table: string, groupBy: string, serverSql = '') =>
    `SELECT CAST("minute" / CAST(? AS BIGINT) AS BIGINT) AS "b", "metric", ${joined} AS "cells" FROM ${table}
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
  const rows = await sql.query<{ b: unknown; metric: string; cells: string | null }>(text, params);
  for (const r of rows) {
    const b = Number(r.b);
    const byB = out[r.metric as LatencyMetric];
    let counts = byB.get(b);
    if (!counts) byB.set(b, (counts = new Map()));
    addCellText(counts, r.cells ?? '');
  }
  return out;
}
