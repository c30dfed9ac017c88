// The rollup tables, written only as additive deltas so concurrent writers and late events compose:
// - "Rollup": per-server, per-minute counters (columns = ROLLUP_COLUMNS of lib/metrics);
// - "RollupQuarter": the same counters per server and quarter hour (the sum of its 15 minutes), so
//   a day's overview reads 96 cells per server instead of 1,440;
// - "LatencyHistogram": per server and minute, how many latencies fell in each log-scale bucket
//   (lib/metrics/latency-histogram.ts), for the percentiles.
// One delta (lib/metrics/rollup-contributions.ts) feeds all three in the writer's transaction.
import { insertRows, type ColumnSpec, type RowsInsert, type SqlExecutor } from '@/lib/db/sql';
import { parseHistogramKey, type LatencyMetric } from '@/lib/metrics/latency-histogram';
import { ROLLUP_COLUMNS, ROLLUP_MS_COLUMNS, type RollupColumn, type RollupDelta } from '@/lib/metrics/rollup-contributions';
import { TABLE, TABLE_SQL, sumColumn } from './tables';

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

type Cell = { server: string; minute: number; values: Partial<Record<RollupColumn, number>> };
export type HistogramRow = [minute: number, server: string, metric: LatencyMetric, bucket: number, count: number];

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
 * A delta as its upserts: "Rollup", "RollupQuarter", "LatencyHistogram" (the empty ones left
 * out), to run in this order. Cells in key order, tables always in the same order: concurrent
 * transactions (other tokens, other instances) lock shared rows in the same order, so they queue
 * instead of deadlocking. Columns a cell does not touch add 0.
 */
export function rollupInserts(delta: RollupDelta): RowsInsert[] {
  const { minutes, quarters, histogram } = splitRollupDelta(delta);
  const out: RowsInsert[] = [];
  if (minutes.length > 0) out.push(cellsInsert(TABLE.rollup, minutes));
  if (quarters.length > 0) out.push(cellsInsert(TABLE.rollupQuarter, quarters));
  if (histogram.length > 0)
    out.push({ table: TABLE.latencyHistogram, columns: HISTOGRAM_COLUMN_SPECS, rows: histogram, tail: HISTOGRAM_ADD_TAIL });
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
  return [
    ...(await read(TABLE_SQL.rollup, q.fromMs, qFrom)),
    ...(await read(TABLE_SQL.rollupQuarter, qFrom, qTo)),
    ...(await read(TABLE_SQL.rollup, qTo, q.toMs)),
  ];
}

export interface HistogramBucketRow {
  b: number;
  metric: LatencyMetric;
  bucket: number;
  count: number;
}

/** Histogram counts per (series bucket, metric, latency bucket) over [fromMs, toMs). */
export async function histogramSums(
  sql: SqlExecutor,
  q: { fromMs: number; toMs: number; bucketMs: number; server: string | null },
  metrics: readonly LatencyMetric[],
): Promise<HistogramBucketRow[]> {
  if (metrics.length === 0) return [];
  const rows = await sql.query<{ b: unknown; metric: string; bucket: unknown; count: unknown }>(
    `SELECT CAST("minute" / CAST(? AS BIGINT) AS BIGINT) AS "b", "metric", "bucket", CAST(SUM("count") AS BIGINT) AS "count"
       FROM ${TABLE_SQL.latencyHistogram}
      WHERE "minute" >= ? AND "minute" < ? AND "metric" IN (${metrics.map(() => '?').join(',')})${q.server === null ? '' : ' AND "server" = ?'}
      GROUP BY 1, 2, 3`,
    [q.bucketMs, q.fromMs, q.toMs, ...metrics, ...(q.server === null ? [] : [q.server])],
  );
  return rows.map((r) => ({ b: Number(r.b), metric: r.metric as LatencyMetric, bucket: Number(r.bucket), count: Number(r.count) }));
}
