// A list's total, bounded: COUNT over a LIMITed subquery on the list's own WHERE, so a broad filter
// on a huge table stops after cap + 1 rows instead of scanning everything (the UI reads "10,000+").
import type { SqlExecutor } from '@/lib/db/sql';
import { LIST_TOTAL_CAP } from '@/lib/contract/api/common';

export interface CappedTotal {
  total: number;
  totalCapped: boolean;
}

/** Rows of `table` matching `where` (joined with AND; none = all), counted up to `cap`. */
export async function countUpTo(
  sql: SqlExecutor,
  table: string,
  where: readonly string[],
  params: readonly unknown[],
  cap = LIST_TOTAL_CAP,
): Promise<CappedTotal> {
  const text = `SELECT COUNT(*) AS "n" FROM (SELECT 1 FROM ${table}${where.length ? ` WHERE ${where.join(' AND ')}` : ''} LIMIT ?) AS "matching"`;
  const [row] = await sql.query<{ n: number | bigint | string }>(text, [...params, cap + 1]);
  const n = Number(row?.n ?? 0);
  return { total: Math.min(n, cap), totalCapped: n > cap };
}
