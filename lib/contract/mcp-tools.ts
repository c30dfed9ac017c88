// The tools Doorwatch's MCP server (/mcp, docs/mcp.md) offers: each tool's input schema is built
// from the query API's own parameter schemas (same names, same checks, same errors), and its output
// is a short shape sized for a model's context (lists capped, series and transcripts left out).
import { z } from 'zod';
import { ZCount, ZIsoMs, ZResolvedRange, zLimitParam } from './api/common';
import { SERVER_VERDICTS, VERDICT_EVIDENCE, ZServerListQuery, ZServerProbeSummary } from './api/servers';
import { ZSessionFilterQuery } from './api/sessions';
import { ZStatsQuery, ZBoundaryCounts, ZDeadlockTotals, ZLatencySummary } from './api/stats';
import { ZResumptionCounts } from './api/resumption-counts';
import { ZServerParam } from './api/routes/params';
import { ZIncidentListQuery, ZIncidentListResponse, ZIncidentResponse } from './api/incidents';
import { zText } from './api/route-contract';
import { SESSION_FLAGS, SESSION_STATES, BOUNDARY_OUTCOMES, ZDeadlock } from './summary';
import { RESUMPTION_FLAGS } from './resumption';
import { PROBE_VERDICTS, ZStepClassification } from './probe-result';

/** The tools' names; run_probe and acknowledge_incident need the admin role, the rest viewer. */
export const MCP_TOOL_NAMES = [
  'fleet_status',
  'server_verdict',
  'stuck_sessions',
  'session_timeline',
  'explain_session',
  'boundary_stats',
  'run_probe',
  'incidents',
  'acknowledge_incident',
] as const;
export type McpToolName = (typeof MCP_TOOL_NAMES)[number];

/** Servers listed by fleet_status, worst first; the rest are counted. */
export const FLEET_STATUS_MAX_SERVERS = 25;
export const STUCK_SESSIONS_MAX = 50;
export const TIMELINE_MAX_EVENTS = 200;

/** What explain_session finds about the refuse-at-the-door rule, worst first (lib/boundary/explain-session.ts). */
export const EXPLANATION_OUTCOMES = [
  'deadlocked',
  'naive_resume',
  'dual_negotiation',
  'burned_token_reuse',
  'refused_correctly',
  'waiting_at_door',
  'through_the_door',
  'never_at_door',
] as const;
export type ExplanationOutcome = (typeof EXPLANATION_OUTCOMES)[number];

// ---- inputs ---------------------------------------------------------------------------------

export const ZFleetStatusInput = ZServerListQuery;
export const ZServerVerdictInput = ZServerParam.extend(ZServerListQuery.shape);
export const ZStuckSessionsInput = ZSessionFilterQuery.pick({ server: true, from: true, to: true }).extend({
  limit: zLimitParam(20, STUCK_SESSIONS_MAX),
});
export const ZSessionRefInput = ZServerParam.extend({ token: zText(256).min(1) });
export const ZSessionTimelineInput = ZSessionRefInput.extend({ limit: zLimitParam(50, TIMELINE_MAX_EVENTS) });
export const ZBoundaryStatsInput = ZStatsQuery.pick({ from: true, to: true, server: true });
export const ZRunProbeInput = ZServerParam;
/** The incident list's own filters, fewer at a time: a model's context is small. */
export const INCIDENTS_MAX = 20;
export const ZIncidentsInput = ZIncidentListQuery.pick({ status: true, server: true }).extend({ limit: zLimitParam(10, INCIDENTS_MAX) });
export const ZAcknowledgeIncidentInput = z.object({
  id: zText(128).min(1).meta({ description: 'the incident id (inc_…), from incidents' }),
});

// ---- outputs --------------------------------------------------------------------------------

const ZFleetServer = z.object({
  name: z.string(),
  verdict: z.enum(SERVER_VERDICTS),
  verdictText: z.string(),
  lastSeenAt: ZIsoMs.nullable(),
  /** Sessions deadlocked now. */
  stuck: ZCount,
  deadlocksInRange: ZCount,
  naiveInRange: z.boolean(),
});

export const ZFleetStatusOutput = z.object({
  now: ZIsoMs,
  range: ZResolvedRange,
  /** The overview's alarm for this range (stuck, warn or calm) and its words. */
  alarm: z.object({ level: z.enum(['stuck', 'warn', 'calm']), headline: z.string(), details: z.array(z.string()) }),
  /** Worst first: stuck sessions, then verdict. */
  servers: z.array(ZFleetServer),
  serversTotal: ZCount,
  truncated: z.boolean(),
});

export const ZServerVerdictOutput = z.object({
  server: z.string(),
  range: ZResolvedRange,
  verdict: z.enum(SERVER_VERDICTS),
  verdictText: z.string(),
  evidence: z.enum(VERDICT_EVIDENCE),
  lastSeenAt: ZIsoMs.nullable(),
  sessions: ZCount,
  counts: ZBoundaryCounts,
  resumption: ZResumptionCounts,
  probe: ZServerProbeSummary.nullable(),
  reporterLoss: z.object({ dropped: ZCount, failed: ZCount }).nullable(),
});

const ZSessionBrief = z.object({
  server: z.string(),
  token: z.string(),
  state: z.enum(SESSION_STATES),
  flags: z.array(z.enum([...SESSION_FLAGS, ...RESUMPTION_FLAGS])),
  openedAt: ZIsoMs.nullable(),
  lastEventAt: ZIsoMs.nullable(),
  boundaryAt: ZIsoMs.nullable(),
  deadlock: ZDeadlock.nullable(),
});

export const ZStuckSessionsOutput = z.object({
  now: ZIsoMs,
  /** Those stuck now first (however long before `from` they began), then newest activity first. */
  sessions: z.array(ZSessionBrief),
  /** Sessions with a deadlock in the filter (all pages; capped count, see totalCapped). */
  total: ZCount,
  totalCapped: z.boolean(),
  ongoing: ZCount,
});

export const ZSessionTimelineOutput = z.object({
  session: ZSessionBrief.extend({
    boundaryOutcome: z.enum(BOUNDARY_OUTCOMES).nullable(),
    eventCount: ZCount,
    previousToken: z.string().nullable(),
    successorToken: z.string().nullable(),
  }),
  /** In stored order; when longer than `limit`, its first and last halves and `omitted` between. */
  events: z.array(z.object({ at: ZIsoMs, type: z.string(), seq: z.int().nullable(), data: z.record(z.string(), z.unknown()) })),
  omitted: ZCount,
});

export const ZExplainSessionOutput = z.object({
  server: z.string(),
  token: z.string(),
  outcome: z.enum(EXPLANATION_OUTCOMES),
  conforms: z.boolean(),
  headline: z.string(),
  account: z.array(z.string()),
});

export const ZBoundaryStatsOutput = ZBoundaryCounts.extend({
  range: ZResolvedRange,
  server: z.string().nullable(),
  events: ZCount,
  sessions: ZCount,
  drops: ZCount,
  deadlocks: ZDeadlockTotals,
  refusalLatencyMs: ZLatencySummary,
  renegotiations: z.object({ count: ZCount, rate: z.number().nullable() }),
  resumption: ZResumptionCounts,
  deadLetters: ZCount,
  rejectedRequests: ZCount,
});

export const ZRunProbeOutput = z.object({
  id: z.string(),
  server: z.string(),
  startedAt: ZIsoMs,
  durationMs: z.int(),
  verdict: z.enum(PROBE_VERDICTS),
  steps: z.array(ZStepClassification),
});

/** A tool's refusal, in the text of an `isError` result: the API's error codes, plus `forbidden` for the role. */
export const ZMcpToolError = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

export const ZIncidentsOutput = ZIncidentListResponse;
export const ZAcknowledgeIncidentOutput = ZIncidentResponse;
