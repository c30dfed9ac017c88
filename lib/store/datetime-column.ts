// The DATETIME columns of the cold tables (Server, ServerSecret, OperatorToken), read and written
// through Sql as Prisma's client did, so rows written before and after the switch read the same.
// Prisma wrote SQLite's DATETIME as ISO text with "+00:00" ("2026-12-03T14:00:00.000+00:00");
// a column DEFAULT writes CURRENT_TIMESTAMP ("2026-12-03 14:00:00", UTC); PostgreSQL's TIMESTAMP(3)
// holds UTC wall time with no zone. (The hot tables keep epoch-ms BIGINTs instead.)
import type { Provider } from '@/lib/config/database-url';

/** A select-list item reading a DATETIME column as text on both databases (`CAST … AS TEXT`). */
export const dateTimeText = (column: string): string => `CAST("${column}" AS TEXT) AS "${column}"`;

/** A Date as the parameter the column stores: Prisma's ISO text on SQLite, UTC wall time on PostgreSQL. */
export function dateTimeParam(date: Date, provider: Provider): string {
  const iso = date.toISOString();
  // PostgreSQL's TIMESTAMP (without time zone) ignores the "Z": the UTC wall time is stored.
  return provider === 'sqlite' ? iso.replace('Z', '+00:00') : iso;
}

/** The column's text (dateTimeText) as a Date; null stays null. Text with no zone is UTC. */
export function dateTimeValue(value: unknown): Date | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value;
  const text = String(value).trim();
  // Prisma's SQLite adapter also reads epoch milliseconds (its "unixepoch-ms" format).
  if (/^\d+$/.test(text)) return new Date(Number(text));
  const time = text.slice(10).replace(/([+-]\d\d)$/, '$1:00');
  const zoned = /(?:Z|[+-]\d\d:?\d\d)$/.test(time) ? time : `${time}Z`;
  const date = new Date(`${text.slice(0, 10)}${zoned.replace(' ', 'T')}`);
  if (Number.isNaN(date.getTime())) throw new Error(`unreadable DATETIME value ${JSON.stringify(text)}`);
  return date;
}

/** dateTimeValue for a NOT NULL column. */
export function requiredDateTime(value: unknown): Date {
  const date = dateTimeValue(value);
  if (!date) throw new Error('DATETIME column unexpectedly NULL');
  return date;
}
