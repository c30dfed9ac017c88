// The "Annotation" table: notes on the time charts (lib/annotations decides who may write what).
// Tags are kept as a JSON array; a tag filter matches its quoted form (tags hold no quotes).
import type { SqlExecutor } from '@/lib/db/sql';
import { TABLE_SQL } from './tables';

export interface AnnotationRow {
  id: string;
  time: number;
  timeEnd: number | null;
  text: string;
  tags: string[];
  server: string | null;
  createdBy: string;
  createdAt: number;
}

const T = TABLE_SQL.annotation;

export async function insertAnnotation(sql: SqlExecutor, a: AnnotationRow): Promise<void> {
  await sql.query(
    `INSERT INTO ${T} ("id", "time", "timeEnd", "text", "tags", "server", "createdBy", "createdAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    [a.id, a.time, a.timeEnd, a.text, JSON.stringify(a.tags), a.server, a.createdBy, a.createdAt],
  );
}

/** Deletes one; false when no annotation has this id. */
export async function deleteAnnotation(sql: SqlExecutor, id: string): Promise<boolean> {
  const rows = await sql.query<{ id: string }>(`DELETE FROM ${T} WHERE "id" = ? RETURNING "id"`, [id]);
  return rows.length > 0;
}

export interface AnnotationWindow {
  fromMs: number;
  toMs: number;
  /** One server's annotations and those for every server; absent: all. */
  server?: string | null;
  /** Every one of these tags. */
  tags?: readonly string[];
  limit?: number;
}

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Annotations overlapping [fromMs, toMs) (a point inside it, or a region reaching into it), oldest first. */
export async function annotationsInWindow(sql: SqlExecutor, w: AnnotationWindow): Promise<AnnotationRow[]> {
  const where = ['"time" < ?', 'COALESCE("timeEnd", "time") >= ?'];
  const params: unknown[] = [w.toMs, w.fromMs];
  if (w.server) {
    where.push('("server" = ? OR "server" IS NULL)');
    params.push(w.server);
  }
  for (const tag of new Set(w.tags ?? [])) {
    where.push(`"tags" LIKE ? ESCAPE '\\'`);
    params.push(`%${likeEscape(JSON.stringify(tag))}%`);
  }
  const rows = await sql.query<Record<string, unknown>>(`SELECT * FROM ${T} WHERE ${where.join(' AND ')} ORDER BY "time", "id" LIMIT ?`, [
    ...params,
    w.limit ?? 500,
  ]);
  return rows.map(fromRow);
}

/** One annotation by id, or null. */
export async function readAnnotation(sql: SqlExecutor, id: string): Promise<AnnotationRow | null> {
  const [row] = await sql.query<Record<string, unknown>>(`SELECT * FROM ${T} WHERE "id" = ?`, [id]);
  return row ? fromRow(row) : null;
}

const fromRow = (r: Record<string, unknown>): AnnotationRow => ({
  id: String(r.id),
  time: Number(r.time),
  timeEnd: r.timeEnd == null ? null : Number(r.timeEnd),
  text: String(r.text),
  tags: JSON.parse(String(r.tags)) as string[],
  server: r.server == null ? null : String(r.server),
  createdBy: String(r.createdBy),
  createdAt: Number(r.createdAt),
});
