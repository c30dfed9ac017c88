// Whatever a sender posted that Doorwatch could not accept is kept for operators: nothing a
// server sent is silently dropped.
import { randomUUID } from 'node:crypto';
import type { SqlExecutor } from '@/lib/db/sql';

export interface DeadLetter {
  server: string | null;
  code: string;
  message: string;
  eventIndex: number | null;
  eventId: string | null;
  payload: string;
}

export async function storeDeadLetters(sql: SqlExecutor, letters: readonly DeadLetter[], receivedAt: number): Promise<void> {
  for (let i = 0; i < letters.length; i += 200) {
    const part = letters.slice(i, i + 200);
    const params: unknown[] = [];
    for (const l of part) params.push(randomUUID(), l.server, receivedAt, l.code, l.message, l.eventIndex, l.eventId, l.payload);
    await sql.execute(
      `INSERT INTO "DeadLetter" ("id","server","receivedAt","code","message","eventIndex","eventId","payload") VALUES ${part.map(() => '(?,?,?,?,?,?,?,?)').join(',')}`,
      params,
    );
  }
}
