// A SqlExecutor that records each statement instead of running it: tests that judge the SQL a store
// function sends (its plan, its bounds) without a database behind it.
import type { SqlExecutor } from '@/lib/db/sql';

export function recordingSql(): { sql: SqlExecutor; sent: { text: string; params: readonly unknown[] }[] } {
  const sent: { text: string; params: readonly unknown[] }[] = [];
  const sql: SqlExecutor = {
    provider: 'sqlite',
    async query<T>(text: string, params: readonly unknown[] = []) {
      sent.push({ text, params });
      return [] as T[];
    },
    async execute(text: string, params: readonly unknown[] = []) {
      sent.push({ text, params });
      return 0;
    },
    async insertMany<T>() {
      return [] as T[];
    },
  };
  return { sql, sent };
}
