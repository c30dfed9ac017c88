// The one-session tools (session_timeline, explain_session) over the session detail query the API's
// GET /api/v1/servers/{server}/sessions/{token} answers with, and the admin's run_probe over the
// same service as POST /api/v1/admin/servers/{server}/probe/run.
import type { z } from 'zod';
import type { Db } from '@/lib/db/client';
import { deadlockMaxMs, deadlockThresholdMs } from '@/lib/config/settings';
import { getSessionDetail } from '@/lib/queries/session-detail';
import { runProbeNow } from '@/lib/probes/probe-admin';
import { explainSession as explain } from '@/lib/boundary/explain-session';
import type {
  ZExplainSessionOutput,
  ZRunProbeInput,
  ZRunProbeOutput,
  ZSessionRefInput,
  ZSessionTimelineInput,
  ZSessionTimelineOutput,
} from '@/lib/contract/mcp-tools';
import { doorwatchNow } from '@/lib/instance/doorwatch-clock';

export async function sessionTimeline(
  db: Db,
  args: z.output<typeof ZSessionTimelineInput>,
): Promise<z.output<typeof ZSessionTimelineOutput>> {
  const d = await getSessionDetail(db, args.server, args.token, doorwatchNow(), deadlockThresholdMs(), deadlockMaxMs());
  const all = d.timeline.map((e) => ({ at: e.at, type: e.type, seq: e.seq, data: e.data }));
  // A long timeline keeps its start (the door) and its end (the answer and what followed).
  const head = Math.ceil(args.limit / 2);
  const events = all.length <= args.limit ? all : [...all.slice(0, head), ...all.slice(all.length - (args.limit - head))];
  const s = d.session;
  return {
    session: {
      server: s.server,
      token: s.token,
      state: s.state,
      flags: [...s.flags, ...s.resumption.flags],
      openedAt: s.openedAt,
      lastEventAt: s.lastEventAt,
      boundaryAt: s.boundaryAt,
      deadlock: s.deadlock,
      boundaryOutcome: s.boundaryOutcome,
      eventCount: s.eventCount,
      previousToken: s.previousToken,
      successorToken: s.successorToken,
    },
    events,
    omitted: all.length - events.length,
  };
}

export async function explainSession(db: Db, args: z.output<typeof ZSessionRefInput>): Promise<z.output<typeof ZExplainSessionOutput>> {
  const d = await getSessionDetail(db, args.server, args.token, doorwatchNow(), deadlockThresholdMs(), deadlockMaxMs());
  return { server: d.session.server, token: d.session.token, ...explain(d.session, d.timeline) };
}

export async function runProbe(db: Db, args: z.output<typeof ZRunProbeInput>): Promise<z.output<typeof ZRunProbeOutput>> {
  const run = await runProbeNow(db, args.server);
  return {
    id: run.id,
    server: run.server,
    startedAt: run.startedAt,
    durationMs: run.durationMs,
    verdict: run.verdict,
    steps: run.result.classification.steps,
  };
}
