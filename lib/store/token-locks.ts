// Per-token serialisation on PostgreSQL: transaction-scoped advisory locks, so two instances
// ingesting the same token never lose each other's update. SQLite has one writer: nothing to do.
import type { SqlExecutor } from '@/lib/db/sql';
import { chunks } from './tables';

export async function lockTokens(tx: SqlExecutor, tokens: Iterable<string>): Promise<void> {
  if (tx.provider !== 'postgresql') return;
  // Sorted, so two transactions always take locks in the same order (no deadlock). One
  // statement per chunk: PostgreSQL evaluates the select list left to right. execute(),
  // not query(): the function returns void, which Prisma's raw query cannot deserialize.
  for (const part of chunks([...new Set(tokens)].sort())) {
    await tx.execute(`SELECT ${part.map(() => 'pg_advisory_xact_lock(hashtextextended(?, 0))').join(', ')}`, part);
  }
}
