// The "DeadLetter" table: whatever a sender posted that Doorwatch could not accept is kept for
// operators, so nothing a server sent is silently dropped. Written in the same transaction as
// the request's valid events; read as keyset pages (newest first) and per-code counts.
import { randomUUID } from 'node:crypto';
import { insertRows, type ColumnSpec, type RowsInsert, type SqlExecutor } from '@/lib/db/sql';
import { TABLE, TABLE_SQL, placeholders } from './tables';

export interface DeadLetter {
  server: string | null;
  code: string;
  message: string;
  eventIndex: number | null;
  eventId: string | null;
  payload: string;
}

/**
 * Dead letters keep what a sender posted, however hostile: PostgreSQL text cannot hold NUL
 * (SQLite can, so both store U+FFFD instead and read the same), and a refused id is kept at
 * its contract length at most.
 */
const MAX_EVENT_ID_CHARS = 128;
function columnText(s: string): string {
  return s.replaceAll('\u0000', '\uFFFD');
}

const DEAD_LETTER_COLUMNS: readonly ColumnSpec[] = [
  { name: 'id', type: 'text' },
  { name: 'server', type: 'text' },
  { name: 'receivedAt', type: 'bigint' },
  { name: 'code', type: 'text' },
  { name: 'message', type: 'text' },
  { name: 'eventIndex', type: 'int' },
  { name: 'eventId', type: 'text' },
  { name: 'payload', type: 'text' },
];

/** The insert of these letters, run alone (storeDeadLetters) or inside ingest's first statement (lib/store/ingest-statements.ts). */
export function deadLetterInsert(letters: readonly DeadLetter[], receivedAt: number): RowsInsert {
  return {
    table: TABLE.deadLetter,
    columns: DEAD_LETTER_COLUMNS,
    rows: letters.map((l) => [
      randomUUID(),
      l.server,
      receivedAt,
      l.code,
      columnText(l.message),
      l.eventIndex,
      l.eventId === null ? null : columnText(l.eventId.slice(0, MAX_EVENT_ID_CHARS)),
      columnText(l.payload),
    ]),
    tail: '',
  };
}

export async function storeDeadLetters(sql: SqlExecutor, letters: readonly DeadLetter[], receivedAt: number): Promise<void> {
  await insertRows(sql, deadLetterInsert(letters, receivedAt));
}

/** A stored dead letter; `payload` may be a prefix of the whole (see payloadChars). Numbers normalised. */
export interface StoredDeadLetter extends DeadLetter {
  id: string;
  receivedAt: number;
  /** Length of the whole stored payload. */
  payloadChars: number;
}

interface DeadLetterRow {
  id: string;
  server: string | null;
  receivedAt: number | bigint | string;
  code: string;
  message: string;
  eventIndex: number | bigint | null;
  eventId: string | null;
  payload: string;
  payloadChars: number | bigint | string;
}

const columns = (previewChars: number | null) =>
  `"id", "server", "receivedAt", "code", "message", "eventIndex", "eventId",
   ${previewChars === null ? '"payload"' : `substr("payload", 1, ${Math.floor(previewChars)}) AS "payload"`}, length("payload") AS "payloadChars"`;

const fromRow = (r: DeadLetterRow): StoredDeadLetter => ({
  id: r.id,
  server: r.server,
  receivedAt: Number(r.receivedAt),
  code: r.code,
  message: r.message,
  eventIndex: r.eventIndex === null ? null : Number(r.eventIndex),
  eventId: r.eventId,
  payload: r.payload,
  payloadChars: Number(r.payloadChars),
});

export interface DeadLetterScope {
  server: string | null;
  /** [fromMs, toMs) on receivedAt; null = open. */
  fromMs: number | null;
  toMs: number | null;
}

function scopeWhere(s: DeadLetterScope): { where: string[]; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (condition: string, value: unknown) => {
    where.push(condition);
    params.push(value);
  };
  if (s.server !== null) add('"server" = ?', s.server);
  if (s.fromMs !== null) add('"receivedAt" >= ?', s.fromMs);
  if (s.toMs !== null) add('"receivedAt" < ?', s.toMs);
  return { where, params };
}

const clause = (parts: string[]) => (parts.length ? `WHERE ${parts.join(' AND ')}` : '');

/** Newest first on (receivedAt, id), strictly after `after`; payloads cut to previewChars. */
export async function readDeadLetterPage(
  sql: SqlExecutor,
  scope: DeadLetterScope & { codes: readonly string[]; after: { receivedAt: number; id: string } | null },
  limit: number,
  previewChars: number,
): Promise<StoredDeadLetter[]> {
  const { where, params } = scopeWhere(scope);
  if (scope.codes.length) {
    where.push(`"code" IN (${placeholders(scope.codes.length)})`);
    params.push(...scope.codes);
  }
  if (scope.after) {
    where.push('("receivedAt" < ? OR ("receivedAt" = ? AND "id" < ?))');
    params.push(scope.after.receivedAt, scope.after.receivedAt, scope.after.id);
  }
  const rows = await sql.query<DeadLetterRow>(
    `SELECT ${columns(previewChars)} FROM ${TABLE_SQL.deadLetter} ${clause(where)}
      ORDER BY "receivedAt" DESC, "id" DESC LIMIT ?`,
    [...params, limit],
  );
  return rows.map(fromRow);
}

/** How many dead letters in scope carry each code. */
export async function countDeadLettersByCode(sql: SqlExecutor, scope: DeadLetterScope): Promise<{ code: string; count: number }[]> {
  const { where, params } = scopeWhere(scope);
  const rows = await sql.query<{ code: string; n: number | bigint | string }>(
    `SELECT "code", COUNT(*) AS "n" FROM ${TABLE_SQL.deadLetter} ${clause(where)} GROUP BY "code"`,
    params,
  );
  return rows.map((r) => ({ code: r.code, count: Number(r.n) }));
}

/** How many dead letters are in scope (DeadLetter_receivedAt_idx / DeadLetter_server_receivedAt_idx). */
export async function countDeadLetters(sql: SqlExecutor, scope: DeadLetterScope): Promise<number> {
  const { where, params } = scopeWhere(scope);
  const [row] = await sql.query<{ n: number | bigint | string }>(
    `SELECT COUNT(*) AS "n" FROM ${TABLE_SQL.deadLetter} ${clause(where)}`,
    params,
  );
  return Number(row?.n ?? 0);
}

/** One dead letter with its whole payload, or null. */
export async function readDeadLetter(sql: SqlExecutor, id: string): Promise<StoredDeadLetter | null> {
  const [row] = await sql.query<DeadLetterRow>(`SELECT ${columns(null)} FROM ${TABLE_SQL.deadLetter} WHERE "id" = ?`, [id]);
  return row ? fromRow(row) : null;
}

/**
 * Deletes up to `limit` dead letters received before `cutoff`. PostgreSQL ("DeadLetter"
 * partitioned by "receivedAt"): keys first, then a delete by full primary key (see
 * deleteEventsOfEndedTimelines in ./events.ts for why).
 */
export async function deleteDeadLettersBefore(tx: SqlExecutor, cutoff: number, limit: number): Promise<number> {
  if (tx.provider !== 'postgresql') {
    return tx.execute(
      `DELETE FROM ${TABLE_SQL.deadLetter} WHERE "id" IN (SELECT "id" FROM ${TABLE_SQL.deadLetter} WHERE "receivedAt" < ? LIMIT ?)`,
      [cutoff, limit],
    );
  }
  const keys = await tx.query<{ id: string; receivedAt: number }>(
    `SELECT "id", "receivedAt" FROM ${TABLE_SQL.deadLetter} WHERE "receivedAt" < ? LIMIT ?`,
    [cutoff, limit],
  );
  if (keys.length === 0) return 0;
  return tx.execute(
    `DELETE FROM ${TABLE_SQL.deadLetter} d USING unnest(?::text[], ?::int8[]) AS k("id", "receivedAt")
      WHERE d."id" = k."id" AND d."receivedAt" = k."receivedAt"`,
    [keys.map((k) => k.id), keys.map((k) => k.receivedAt)],
  );
}
