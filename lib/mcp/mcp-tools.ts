// Doorwatch's MCP server: one McpServer per /mcp session, its tools registered with the input and
// output schemas of lib/contract/mcp-tools.ts. The caller's role comes with every request (the
// route authorises each HTTP request, lib/mcp/mcp-endpoint.ts hands the role over as authInfo), so a
// viewer's token is refused run_probe at the moment it calls it, naming the role it needs.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { getDb, getReadDb, type Db } from '@/lib/db/client';
import type { TOperatorRole } from '@/lib/contract/api/operators';
import {
  ZAcknowledgeIncidentInput,
  ZAcknowledgeIncidentOutput,
  ZBoundaryStatsInput,
  ZBoundaryStatsOutput,
  ZExplainSessionOutput,
  ZFleetStatusInput,
  ZFleetStatusOutput,
  ZIncidentsInput,
  ZIncidentsOutput,
  ZRunProbeInput,
  ZRunProbeOutput,
  ZServerVerdictInput,
  ZServerVerdictOutput,
  ZSessionRefInput,
  ZSessionTimelineInput,
  ZSessionTimelineOutput,
  ZStuckSessionsInput,
  ZStuckSessionsOutput,
  type McpToolName,
} from '@/lib/contract/mcp-tools';
import { boundaryStats, fleetStatus, serverVerdict, stuckSessions } from './fleet-tools';
import { explainSession, runProbe, sessionTimeline } from './session-tools';
import { acknowledgeIncident, incidents } from './incident-tools';
import { toolAnswer, toolFailure, toolRefusal } from './tool-answer';

/** What each request carries to the tools: the caller's role (as the one "scope"). */
export const roleScopes = (role: TOperatorRole): string[] => [role];

interface ToolSpec<I extends z.ZodObject, O extends z.ZodObject> {
  name: McpToolName;
  title: string;
  description: string;
  input: I;
  output: O;
  role: 'viewer' | 'admin';
  /** `actor`: the calling operator's name, recorded by the tools that change something. */
  run(db: Db, args: z.output<I>, actor: string): Promise<z.output<O>>;
  /** One line for clients that read only the text. */
  summary(out: z.output<O>): string;
}

const spec = <I extends z.ZodObject, O extends z.ZodObject>(s: ToolSpec<I, O>) => s;

const TOOLS = [
  spec({
    name: 'fleet_status',
    title: 'Fleet status',
    description:
      'The alarm (stuck, warn, calm) and every server’s conformance verdict, worst first (at most 25). Range: from/to as in the API (default now-15m).',
    input: ZFleetStatusInput,
    output: ZFleetStatusOutput,
    role: 'viewer',
    run: fleetStatus,
    summary: (o) => `${o.alarm.level}: ${o.alarm.headline}; ${o.servers.map((s) => `${s.name} ${s.verdict}`).join(', ') || 'no servers'}`,
  }),
  spec({
    name: 'server_verdict',
    title: 'Server verdict',
    description: 'One server’s verdict at the SSE→WebSocket door with its evidence: boundary counts, resumption health, latest door probe.',
    input: ZServerVerdictInput,
    output: ZServerVerdictOutput,
    role: 'viewer',
    run: serverVerdict,
    summary: (o) => `${o.server}: ${o.verdictText}`,
  }),
  spec({
    name: 'stuck_sessions',
    title: 'Stuck sessions',
    description:
      'Sessions with a deadlock (a naive resume past the door left the client waiting): those stuck now first (ongoing, even if they began to wait before `from`), then the rest, newest first.',
    input: ZStuckSessionsInput,
    output: ZStuckSessionsOutput,
    role: 'viewer',
    run: stuckSessions,
    summary: (o) => `${o.total}${o.totalCapped ? '+' : ''} deadlocked sessions, ${o.ongoing} of those listed stuck now`,
  }),
  spec({
    name: 'session_timeline',
    title: 'Session timeline',
    description: 'One session’s ordered events (at most `limit`: the start and the end of a longer one) and its summary.',
    input: ZSessionTimelineInput,
    output: ZSessionTimelineOutput,
    role: 'viewer',
    run: sessionTimeline,
    summary: (o) => `${o.session.token}: ${o.events.map((e) => e.type).join(' → ')}${o.omitted ? ` (${o.omitted} omitted)` : ''}`,
  }),
  spec({
    name: 'explain_session',
    title: 'Explain a session',
    description: 'A plain account of what happened at the upgrade door for one session, judged by the refuse-at-the-door rule.',
    input: ZSessionRefInput,
    output: ZExplainSessionOutput,
    role: 'viewer',
    run: explainSession,
    summary: (o) => [o.headline, ...o.account].join('\n'),
  }),
  spec({
    name: 'boundary_stats',
    title: 'Boundary statistics',
    description:
      'Totals at the door over a range (default now-15m), optionally for one server: entries, refusals, naive resumes, deadlocks, latency, resumption health.',
    input: ZBoundaryStatsInput,
    output: ZBoundaryStatsOutput,
    role: 'viewer',
    run: boundaryStats,
    summary: (o) =>
      `${o.boundary} at the door, ${o.refused} refused, ${o.naiveResumes} naive resumes, ${o.deadlocks.total} deadlocks (${o.deadlocks.ongoing} ongoing), ${o.deadlocks.stuckNow} stuck now`,
  }),
  spec({
    name: 'run_probe',
    title: 'Run a door probe (admin)',
    description: 'Runs the server’s door probe now and answers with its verdict per step. Needs an admin token.',
    input: ZRunProbeInput,
    output: ZRunProbeOutput,
    role: 'admin',
    run: runProbe,
    summary: (o) => `probe ${o.id} of ${o.server}: ${o.verdict}`,
  }),
  spec({
    name: 'incidents',
    title: 'Incidents',
    description:
      'Incidents, newest last seen first (at most 20): status, since when (firstSeen), the versions involved, who acknowledged it, regressions; with totals per status. Filters: status, server.',
    input: ZIncidentsInput,
    output: ZIncidentsOutput,
    role: 'viewer',
    run: incidents,
    summary: (o) =>
      `${o.totals.open} open, ${o.totals.acknowledged} acknowledged, ${o.totals.resolved} resolved; ` +
      (o.incidents.map((i) => `${i.id} ${i.status}: ${i.title}`).join('; ') || 'none match'),
  }),
  spec({
    name: 'acknowledge_incident',
    title: 'Acknowledge an incident (admin)',
    description: 'Acknowledges an open incident: it records who is on it and stops its notifications. Needs an admin token.',
    input: ZAcknowledgeIncidentInput,
    output: ZAcknowledgeIncidentOutput,
    role: 'admin',
    run: acknowledgeIncident,
    summary: (o) => `${o.incident.title}: acknowledged by ${o.incident.acknowledgedBy ?? '?'}`,
  }),
];

async function call<I extends z.ZodObject, O extends z.ZodObject>(
  tool: ToolSpec<I, O>,
  args: z.output<I>,
  scopes: readonly string[] | undefined,
  actor: string,
): Promise<CallToolResult> {
  if (tool.role === 'admin' && !scopes?.includes('admin')) {
    const role = scopes?.[0] ?? 'none';
    return toolRefusal('forbidden', `${tool.name} needs an operator token of role admin; this token's role is ${role}`);
  }
  try {
    // Reads may go to the replica, as their API routes do; the admin tools write.
    const out = await tool.run(tool.role === 'admin' ? getDb() : getReadDb(), args, actor);
    return toolAnswer(out as Record<string, unknown>, tool.summary(out));
  } catch (err) {
    return toolFailure(tool.name, err);
  }
}

export function createDoorwatchMcpServer(version: string): McpServer {
  const server = new McpServer({ name: 'doorwatch', version }, { capabilities: { tools: {} } });
  for (const t of TOOLS as ToolSpec<z.ZodObject, z.ZodObject>[]) {
    server.registerTool(
      t.name,
      {
        title: t.title,
        description: t.description,
        inputSchema: t.input,
        outputSchema: t.output,
        annotations: { readOnlyHint: t.role === 'viewer', openWorldHint: false },
      },
      (args: Record<string, unknown>, extra) =>
        call(t, args, extra.authInfo?.scopes, String(extra.authInfo?.extra?.operator ?? 'unknown operator')),
    );
  }
  return server;
}
