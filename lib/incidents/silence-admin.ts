// Silences: create (rule, server or both; a reason; an expiry), list, expire by hand. What a
// silence matches is stored as a suppressed delivery (lib/alerts/incident-link.ts), and counted.
import { randomUUID } from 'node:crypto';
import type { Db } from '@/lib/db/client';
import type { TSilence, TSilenceCreate } from '@/lib/contract/api/incidents';
import { toIsoMs } from '@/lib/contract/timestamp';
import { ApiError } from '@/lib/http/api-error';
import { expireSilence, insertSilence, listSilences, readSilence, type SilenceRow } from '@/lib/store/silences';
import { findAlertRule } from '@/lib/store/alert-rules';
import { recordAudit, type AuditContext } from '@/lib/store/audit-log';

function silenceView(s: SilenceRow, nowMs: number): TSilence {
  const over = s.expiredAt !== null || s.endsAt <= nowMs;
  return {
    id: s.id,
    ruleId: s.ruleId,
    server: s.server,
    reason: s.reason,
    createdBy: s.createdBy,
    createdAt: toIsoMs(s.createdAt),
    endsAt: toIsoMs(s.endsAt),
    expiredAt: s.expiredAt === null ? null : toIsoMs(s.expiredAt),
    expiredBy: s.expiredBy,
    state: over ? 'expired' : 'active',
    suppressed: s.suppressed,
  };
}

export async function createSilence(db: Db, input: TSilenceCreate, audit: AuditContext, nowMs: number): Promise<{ silence: TSilence }> {
  if (input.ruleId !== undefined && !(await findAlertRule(db.sql, input.ruleId))) {
    throw new ApiError(404, 'rule_not_found', `no alert rule "${input.ruleId}"`);
  }
  const row: SilenceRow = {
    id: `sil_${randomUUID()}`,
    ruleId: input.ruleId ?? null,
    server: input.server ?? null,
    reason: input.reason,
    createdBy: audit.actor.name,
    createdAt: nowMs,
    endsAt: nowMs + input.durationSeconds * 1000,
    expiredAt: null,
    expiredBy: null,
    suppressed: 0,
  };
  await db.sql.transaction(async (tx) => {
    await insertSilence(tx, row);
    await recordAudit(tx, audit, { action: 'create', entityType: 'silence', entityId: row.id, before: null, after: row }, nowMs);
  });
  return { silence: silenceView(row, nowMs) };
}

export async function silenceList(db: Db, state: 'active' | 'expired' | undefined, nowMs: number): Promise<{ silences: TSilence[] }> {
  const rows = await listSilences(db.sql, state === 'active' ? nowMs : undefined);
  const views = rows.map((r) => silenceView(r, nowMs));
  return { silences: state === 'expired' ? views.filter((v) => v.state === 'expired') : views };
}

export async function endSilence(db: Db, id: string, audit: AuditContext, nowMs: number): Promise<{ silence: TSilence }> {
  const ended = await db.sql.transaction(async (tx) => {
    const before = await readSilence(tx, id);
    if (!before || !(await expireSilence(tx, id, audit.actor.name, nowMs))) return false;
    await recordAudit(
      tx,
      audit,
      { action: 'expire', entityType: 'silence', entityId: id, before, after: await readSilence(tx, id) },
      nowMs,
    );
    return true;
  });
  const row = await readSilence(db.sql, id);
  if (!row) throw new ApiError(404, 'silence_not_found', `no silence "${id}"`);
  if (!ended) throw new ApiError(409, 'silence_not_active', `silence ${id} is already over`);
  return { silence: silenceView(row, nowMs) };
}
