// The "ProbeRun" table: one row per door-probe run, the whole ZProbeResult kept as JSON (its
// transcripts are bounded by the engine, and the row by MAX_RESULT_CHARS), pruned by retention
// like raw events. `latestProbeVerdicts` is the read an alert rule ("probe failing") builds on.
import { randomUUID } from 'node:crypto';
import type { SqlExecutor } from '@/lib/db/sql';
import { ZProbeResult, type ProbeResult, type ProbeStepName, type ProbeVerdict, type StepFinding } from '@/lib/contract/probe-result';
import { TABLE_SQL } from './tables';
import { countUpTo, type CappedTotal } from './capped-count';

const T = TABLE_SQL.probeRun;

/** Upper bound of one stored result; beyond it transcripts are dropped (the classification stays). */
export const MAX_RESULT_CHARS = 256 * 1024;

export type ProbeTrigger = 'schedule' | 'manual';

export interface StoredProbeRun {
  id: string;
  server: string;
  startedAt: number;
  durationMs: number;
  verdict: ProbeVerdict;
  trigger: ProbeTrigger;
  result: ProbeResult;
}

interface Row {
  id: string;
  server: string;
  startedAt: unknown;
  durationMs: unknown;
  verdict: string;
  trigger: string;
  result: string;
}

/** The JSON to store: whole, or with transcripts emptied (entries counted as omitted) if too large. */
export function boundedResultJson(result: ProbeResult): string {
  const whole = JSON.stringify(result);
  if (whole.length <= MAX_RESULT_CHARS) return whole;
  const steps = result.steps.map((s) => ({
    ...s,
    transcript: { entries: [], omitted: s.transcript.omitted + s.transcript.entries.length },
  }));
  return JSON.stringify({ ...result, steps });
}

export async function insertProbeRun(
  sql: SqlExecutor,
  server: string,
  result: ProbeResult,
  trigger: ProbeTrigger,
  id: string = randomUUID(),
): Promise<StoredProbeRun> {
  const startedAt = Date.parse(result.startedAt);
  await sql.execute(
    `INSERT INTO ${T} ("id", "server", "startedAt", "durationMs", "verdict", "trigger", "result") VALUES (?, ?, ?, ?, ?, ?, ?)`,
    [id, server, startedAt, result.durationMs, result.classification.verdict, trigger, boundedResultJson(result)],
  );
  return { id, server, startedAt, durationMs: result.durationMs, verdict: result.classification.verdict, trigger, result };
}

const fromRow = (r: Row): StoredProbeRun => ({
  id: r.id,
  server: r.server,
  startedAt: Number(r.startedAt),
  durationMs: Number(r.durationMs),
  verdict: r.verdict as ProbeVerdict,
  trigger: r.trigger === 'manual' ? 'manual' : 'schedule',
  // Written by insertProbeRun from a checked result; parsed again so a reader never gets a wrong shape.
  result: ZProbeResult.parse(JSON.parse(r.result)),
});

export interface ProbeRunFilter {
  server: string;
  /** Only runs with these verdicts; empty for all. */
  verdicts: readonly ProbeVerdict[];
}

function filterWhere(f: ProbeRunFilter): { where: string[]; params: unknown[] } {
  const where = ['"server" = ?'];
  const params: unknown[] = [f.server];
  if (f.verdicts.length) {
    where.push(`"verdict" IN (${f.verdicts.map(() => '?').join(', ')})`);
    params.push(...f.verdicts);
  }
  return { where, params };
}

/** A server's runs matching the filter, newest first, strictly before `before` (keyset on startedAt, id). */
export async function readProbeRuns(
  sql: SqlExecutor,
  filter: ProbeRunFilter,
  limit: number,
  before: { startedAt: number; id: string } | null = null,
): Promise<StoredProbeRun[]> {
  const { where, params } = filterWhere(filter);
  if (before) {
    where.push('("startedAt" < ? OR ("startedAt" = ? AND "id" < ?))');
    params.push(before.startedAt, before.startedAt, before.id);
  }
  const rows = await sql.query<Row>(`SELECT * FROM ${T} WHERE ${where.join(' AND ')} ORDER BY "startedAt" DESC, "id" DESC LIMIT ?`, [
    ...params,
    limit,
  ]);
  return rows.map(fromRow);
}

/** How many of a server's runs match the filter (all of them, not the limit), up to the list cap. */
export function countProbeRuns(sql: SqlExecutor, filter: ProbeRunFilter): Promise<CappedTotal> {
  const { where, params } = filterWhere(filter);
  return countUpTo(sql, T, where, params);
}

export interface LatestProbeVerdict {
  server: string;
  runId: string;
  startedAt: number;
  verdict: ProbeVerdict;
  /** The verdict of the run before it (null if none): pass → fail is a regression. */
  previousVerdict: ProbeVerdict | null;
  /** Steps whose verdict is fail, with their finding (e.g. reset_at_door: deadlock). */
  failedSteps: { step: ProbeStepName; finding: StepFinding }[];
}

/** Each server's latest probe run and the one before it (for alert rules and the server verdicts). */
export async function latestProbeVerdicts(sql: SqlExecutor): Promise<Map<string, LatestProbeVerdict>> {
  // The two newest runs per server; portable (no window functions needed for two rows).
  const rows = await sql.query<Row>(
    `SELECT r.* FROM ${T} r
      WHERE (SELECT COUNT(*) FROM ${T} n WHERE n."server" = r."server" AND (n."startedAt" > r."startedAt" OR (n."startedAt" = r."startedAt" AND n."id" > r."id"))) < 2
      ORDER BY r."server", r."startedAt" DESC, r."id" DESC`,
  );
  const out = new Map<string, LatestProbeVerdict>();
  for (const row of rows) {
    const cur = out.get(row.server);
    if (cur) {
      if (cur.previousVerdict === null) cur.previousVerdict = row.verdict as ProbeVerdict;
      continue;
    }
    const run = fromRow(row);
    out.set(row.server, {
      server: run.server,
      runId: run.id,
      startedAt: run.startedAt,
      verdict: run.verdict,
      previousVerdict: null,
      failedSteps: run.result.classification.steps.filter((s) => s.verdict === 'fail').map((s) => ({ step: s.step, finding: s.finding })),
    });
  }
  return out;
}

/** Retention: up to `limit` runs started before `cutoff`. */
export function deleteProbeRunsBefore(tx: SqlExecutor, cutoff: number, limit: number): Promise<number> {
  return tx.execute(`DELETE FROM ${T} WHERE "id" IN (SELECT "id" FROM ${T} WHERE "startedAt" < ? LIMIT ?)`, [cutoff, limit]);
}

/** A server's runs started in [fromMs, toMs], newest first, without their results (an incident's timeline). */
export async function probeRunsBetween(
  sql: SqlExecutor,
  server: string,
  fromMs: number,
  toMs: number,
  limit: number,
): Promise<Pick<StoredProbeRun, 'id' | 'startedAt' | 'verdict' | 'trigger'>[]> {
  const rows = await sql.query<Row>(
    `SELECT "id", "startedAt", "verdict", "trigger" FROM ${T} WHERE "server" = ? AND "startedAt" >= ? AND "startedAt" <= ?
      ORDER BY "startedAt" DESC, "id" DESC LIMIT ?`,
    [server, fromMs, toMs, limit],
  );
  return rows.map((r) => ({
    id: r.id,
    startedAt: Number(r.startedAt),
    verdict: r.verdict as ProbeVerdict,
    trigger: r.trigger === 'manual' ? 'manual' : 'schedule',
  }));
}
