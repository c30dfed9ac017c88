// What Doorwatch stored for one session reported by an external reporter (the npm package or the
// Python file): its events, its summary, the server's verdict and the reporter's loss status.
import type { AppServer } from './app-server';
import { ZServerListResponse } from '@/lib/contract/api/servers';
import { TEST_ADMIN_TOKEN as ADMIN } from './app-server';

export interface ReportedSession {
  eventIds: string[];
  types: string[];
  state: string | null;
  boundaryOutcome: string | null;
  verdict: string | null;
  reporters: { instance: string; dropped: number; failed: number }[];
}

export async function readReportedSession(app: AppServer, server: string, token: string): Promise<ReportedSession> {
  const events = await app.query<{ eventId: string; type: string }>(
    'SELECT "eventId", "type" FROM "Event" WHERE "server" = ? AND "token" = ? ORDER BY "at", "seq"',
    [server, token],
  );
  const [session] = await app.query<{ state: string; boundaryOutcome: string | null }>(
    'SELECT "state", "boundaryOutcome" FROM "Session" WHERE "server" = ? AND "token" = ?',
    [server, token],
  );
  const reporters = await app.query<{ instance: string; dropped: number; failed: number }>(
    'SELECT "instance", "dropped", "failed" FROM "ReporterStatus" WHERE "server" = ? ORDER BY "instance"',
    [server],
  );
  const res = await fetch(`${app.url}/api/v1/servers`, { headers: { authorization: `Bearer ${ADMIN}` } });
  if (!res.ok) throw new Error(`GET /api/v1/servers → ${res.status}: ${await res.text()}`);
  const verdict = ZServerListResponse.parse(await res.json()).servers.find((s) => s.name === server)?.verdict ?? null;
  return {
    eventIds: events.map((e) => e.eventId),
    types: events.map((e) => e.type),
    state: session?.state ?? null,
    boundaryOutcome: session?.boundaryOutcome ?? null,
    verdict,
    reporters: reporters.map((r) => ({ instance: r.instance, dropped: Number(r.dropped), failed: Number(r.failed) })),
  };
}

/** The event types of a refusing server's boundary session, in order. */
export const REFUSED_TIMELINE_TYPES = ['session.opened', 'upgrade.accepted', 'stream.dropped', 'resume.requested', 'resume.refused'];
