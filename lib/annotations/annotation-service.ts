// Annotations: post (admin or the annotate role: a CI/CD token marking deploys), list a window with
// the versions first reported in it (the charts' markers), delete (admin). Close to Grafana's API.
import { randomUUID } from 'node:crypto';
import type { Db } from '@/lib/db/client';
import type { TAnnotationCreate, TAnnotationListResponse, TAnnotationView } from '@/lib/contract/api/annotations';
import { toIsoMs } from '@/lib/contract/timestamp';
import { ApiError } from '@/lib/http/api-error';
import { annotationsInWindow, deleteAnnotation, insertAnnotation, readAnnotation, type AnnotationRow } from '@/lib/store/annotations';
import { versionsFirstSeenIn } from '@/lib/store/server-versions';
import { parseTimeRange } from '@/lib/queries/time-range';
import { recordAudit, type AuditContext } from '@/lib/store/audit-log';

const view = (a: AnnotationRow): TAnnotationView => ({
  id: a.id,
  time: toIsoMs(a.time),
  timeEnd: a.timeEnd === null ? null : toIsoMs(a.timeEnd),
  text: a.text,
  tags: a.tags,
  server: a.server,
  createdBy: a.createdBy,
  createdAt: toIsoMs(a.createdAt),
});

export async function createAnnotation(
  db: Pick<Db, 'sql'>,
  input: TAnnotationCreate,
  audit: AuditContext,
  nowMs = Date.now(),
): Promise<TAnnotationView> {
  const time = input.time ?? nowMs;
  if (input.timeEnd !== undefined && input.timeEnd < time) {
    throw new ApiError(400, 'invalid_body', 'timeEnd: must be at or after time (which defaults to now)');
  }
  const row: AnnotationRow = {
    id: randomUUID(),
    time,
    timeEnd: input.timeEnd ?? null,
    text: input.text,
    tags: [...new Set(input.tags)],
    server: input.server ?? null,
    createdBy: audit.actor.name,
    createdAt: nowMs,
  };
  await db.sql.transaction(async (tx) => {
    await insertAnnotation(tx, row);
    await recordAudit(tx, audit, { action: 'create', entityType: 'annotation', entityId: row.id, before: null, after: row }, nowMs);
  });
  return view(row);
}

export interface AnnotationListInput {
  from?: string;
  to?: string;
  server?: string;
  tags: string[];
  limit: number;
}

export async function listAnnotations(db: Pick<Db, 'sql'>, q: AnnotationListInput, nowMs = Date.now()): Promise<TAnnotationListResponse> {
  const range = parseTimeRange(q.from, q.to, nowMs);
  const [annotations, versions] = await Promise.all([
    annotationsInWindow(db.sql, { fromMs: range.fromMs, toMs: range.toMs, server: q.server ?? null, tags: q.tags, limit: q.limit }),
    // A tag filter asks for annotations only: versions carry no tags.
    q.tags.length > 0 ? [] : versionsFirstSeenIn(db.sql, { fromMs: range.fromMs, toMs: range.toMs, server: q.server ?? null }),
  ]);
  return {
    annotations: annotations.map(view),
    versions: versions.map((v) => ({ server: v.server, version: v.version, firstSeenAt: toIsoMs(v.firstSeenAt) })),
  };
}

export async function removeAnnotation(db: Pick<Db, 'sql'>, id: string, audit: AuditContext): Promise<void> {
  const removed = await db.sql.transaction(async (tx) => {
    const before = await readAnnotation(tx, id);
    if (!before || !(await deleteAnnotation(tx, id))) return false;
    await recordAudit(tx, audit, { action: 'delete', entityType: 'annotation', entityId: id, before, after: null });
    return true;
  });
  if (!removed) throw new ApiError(404, 'annotation_not_found', `no annotation has id ${id}`);
}
