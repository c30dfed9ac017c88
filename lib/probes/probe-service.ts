// Running a server's door probe end to end: read its registered target (credential opened from
// its sealed form), run the engine, store the probe's sessions through the ingest write path as
// synthetic, and keep the run. Used by the schedule and by the admin "run now" route.
import { randomUUID } from 'node:crypto';
import type { Db } from '@/lib/db/client';
import { ZEvent } from '@/lib/contract/event';
import { ApiError } from '@/lib/http/api-error';
import { storeBatch } from '@/lib/ingest/store-batch';
import { deadlockThresholdMs } from '@/lib/config/settings';
import { insertProbeRun, type ProbeTrigger, type StoredProbeRun } from '@/lib/store/probe-runs';
import { markProbeTargetRun, probeCredential, readProbeTarget } from '@/lib/store/probe-targets';
import { recordEvidence } from '@/lib/incidents/record-evidence';
import { probeEvents, probeTokens } from './probe-events';
import { runProbe, type ProbeOptions } from './run-probe';
import { doorwatchNow } from '@/lib/instance/doorwatch-clock';

/** A failed run as the incident's thread names it: its trigger and what failed where, not its id. */
function probeRunName(run: Pick<StoredProbeRun, 'trigger' | 'result'>): string {
  const failed = run.result.classification.steps.filter((s) => s.verdict === 'fail').map((s) => `${s.step} ${s.finding}`);
  return `(${run.trigger}): ${failed.join(', ')}`;
}

export async function runServerProbe(db: Db, server: string, trigger: ProbeTrigger, options: ProbeOptions = {}): Promise<StoredProbeRun> {
  // The schedule's instant (lastRunAt) is on the steady clock that runDueProbes compares it with, so a
  // step of the host clock neither runs a probe early nor holds it back for the step's length.
  const scheduledAt = doorwatchNow();
  const target = await readProbeTarget(db.sql, server);
  if (!target)
    throw new ApiError(
      404,
      'probe_target_not_found',
      `server "${server}" has no probe target; set one with PUT /api/v1/admin/servers/${server}/probe`,
    );
  const credential = await probeCredential(db.sql, server);
  const result = await runProbe({ url: target.url, credential }, { stepTimeoutMs: target.stepTimeoutMs, ...options });
  const runId = randomUUID();
  const now = Date.now();
  // The engine writes well-formed events; checking them here keeps the ingest contract the only door.
  const events = probeEvents(runId, result).map((e) => ZEvent.parse(e));
  await storeBatch(db.sql, server, events, {
    now,
    writtenAt: doorwatchNow(),
    floorAtDatabaseClock: true,
    deadlockThresholdMs: deadlockThresholdMs(),
    synthetic: { runId, tokens: probeTokens(result) },
  });
  const run = await insertProbeRun(db.sql, server, result, trigger, runId);
  // A failed door probe is evidence: it opens (or joins) the server's probe-failure incident.
  if (run.verdict === 'fail') {
    const evidence = { server, kind: 'probe_failure', at: run.startedAt, ref: run.id } as const;
    await db.sql.transaction((tx) => recordEvidence(tx, [evidence], 'probe run', doorwatchNow(), () => probeRunName(run)));
  }
  await markProbeTargetRun(db.sql, server, scheduledAt);
  return run;
}
