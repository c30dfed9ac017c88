// Incidents (GET/POST under /api/v1/incidents) and notification silences (/api/v1/silences).
// One schema per contract: routes, OpenAPI and the UI.
import { z } from 'zod';
import { ZCount, ZIsoMs, zLimitParam } from './common';
import { zText } from './route-contract';

/** One incident per server and kind: the evidence that opens and joins it (lib/incidents/incident-kind.ts). */
export const INCIDENT_KINDS = [
  'naive_resume',
  'dual_negotiation',
  'burned_token_reuse',
  'probe_failure',
  'deadlock',
  'refusal_latency',
  'renegotiation',
  'rejected_requests',
  'server_silence',
] as const;
export const ZIncidentKind = z.enum(INCIDENT_KINDS);
export type TIncidentKind = z.infer<typeof ZIncidentKind>;

export const INCIDENT_STATUSES = ['open', 'acknowledged', 'resolved'] as const;
export const ZIncidentStatus = z.enum(INCIDENT_STATUSES);
export type TIncidentStatus = z.infer<typeof ZIncidentStatus>;

export const ZIncident = z.object({
  id: z.string(),
  server: z.string(),
  kind: ZIncidentKind,
  title: z.string().meta({ description: 'e.g. "Naive resumes on srv-a"' }),
  status: ZIncidentStatus,
  firstSeen: ZIsoMs.meta({ description: 'the earliest evidence: "since when"' }),
  lastSeen: ZIsoMs,
  openedAt: ZIsoMs.meta({ description: 'when Doorwatch opened it' }),
  sessionCount: ZCount,
  regression: z.boolean().meta({ description: 'it was resolved and evidence came back after that' }),
  regressions: ZCount,
  regressedAt: ZIsoMs.nullable(),
  acknowledgedAt: ZIsoMs.nullable(),
  acknowledgedBy: z.string().nullable().meta({ description: '"who is on it": the operator who acknowledged it' }),
  resolvedAt: ZIsoMs.nullable(),
  resolvedBy: z.string().nullable().meta({ description: 'an operator, or "doorwatch (quiet period)"' }),
  versions: z.array(z.string()).meta({
    description: 'server versions that served its sessions, oldest first; empty when none of them carried a version',
  }),
});
export type TIncident = z.infer<typeof ZIncident>;

export const ZIncidentTotals = z.object({ open: ZCount, acknowledged: ZCount, resolved: ZCount, all: ZCount });

export const ZIncidentListQuery = z.object({
  status: ZIncidentStatus.optional().meta({ description: 'Only incidents in this status' }),
  server: zText(128).optional().meta({ description: 'Only incidents of this server' }),
  limit: zLimitParam(50, 500),
  offset: z.coerce.number().int().min(0).max(100_000).default(0).meta({ description: 'Incidents to skip (newest last seen first)' }),
});
export const ZIncidentListResponse = z.object({
  incidents: z.array(ZIncident),
  totals: ZIncidentTotals.meta({ description: 'per status, over the server filter (not the status filter)' }),
  total: ZCount.meta({ description: 'incidents matching every filter' }),
});
export type TIncidentListResponse = z.infer<typeof ZIncidentListResponse>;

/** Where a timeline entry comes from; each is one source lib/incidents/incident-timeline.ts assembles. */
export const TIMELINE_SOURCES = ['session', 'alert', 'probe', 'activity', 'annotation', 'version'] as const;
export const ZTimelineEntry = z.object({
  at: ZIsoMs,
  source: z.enum(TIMELINE_SOURCES),
  kind: z.string().meta({ description: 'e.g. naive_resume, firing, fail, acknowledged, note, annotation, first_seen' }),
  summary: z.string(),
  actor: z.string().nullable(),
  ref: z.string().nullable().meta({ description: 'a session token, transition id, probe run id, activity id, annotation id or version' }),
  path: z.string().nullable().meta({ description: 'link within this dashboard' }),
  context: z.boolean().meta({
    description:
      "true: the server's other alerts, and its door probes unless the incident is a failing probe, in the incident's window (what else went on); false: the incident's own evidence, its activity, and the deploys and versions before it",
  }),
});
export type TTimelineEntry = z.infer<typeof ZTimelineEntry>;

export const ZIncidentSession = z.object({ server: z.string(), token: z.string(), at: ZIsoMs, path: z.string() });

export const ZIncidentDetailQuery = z.object({
  sessionsLimit: zLimitParam(50, 500),
  sessionsOffset: z.coerce.number().int().min(0).max(1_000_000).default(0).meta({ description: 'Sessions to skip (newest first)' }),
});
export const ZIncidentDetail = z.object({
  incident: ZIncident,
  sessions: z.object({ items: z.array(ZIncidentSession), total: ZCount, offset: ZCount, limit: ZCount }),
  timeline: z.array(ZTimelineEntry).meta({
    description:
      "oldest first; each source holds its newest 200 entries (the incident's own alerts and the server's other alerts are separate sources)",
  }),
  timelineTruncated: z.boolean(),
});
export type TIncidentDetail = z.infer<typeof ZIncidentDetail>;

export const MAX_NOTE_CHARS = 2000;
export const ZIncidentNoteCreate = z.object({ text: zText(MAX_NOTE_CHARS).min(1, 'must not be empty') });
export const ZIncidentResolve = z.object({ note: zText(MAX_NOTE_CHARS).optional() }).default({});
export const ZIncidentResponse = z.object({ incident: ZIncident });

export const MAX_SILENCE_SECONDS = 90 * 86_400;
export const ZSilenceCreate = z
  .object({
    ruleId: zText(128).min(1).optional(),
    server: zText(128).min(1).optional(),
    reason: zText(500).min(1, 'must not be empty'),
    durationSeconds: z.int().min(60).max(MAX_SILENCE_SECONDS),
  })
  .refine((s) => s.ruleId !== undefined || s.server !== undefined, { message: 'name a ruleId, a server or both', path: ['ruleId'] });
export type TSilenceCreate = z.output<typeof ZSilenceCreate>;

export const ZSilenceState = z.enum(['active', 'expired']);
export const ZSilence = z.object({
  id: z.string(),
  ruleId: z.string().nullable(),
  server: z.string().nullable(),
  reason: z.string(),
  createdBy: z.string(),
  createdAt: ZIsoMs,
  endsAt: ZIsoMs,
  expiredAt: ZIsoMs.nullable(),
  expiredBy: z.string().nullable(),
  state: ZSilenceState,
  suppressed: ZCount.meta({ description: 'notifications it held back (stored as suppressed deliveries)' }),
});
export type TSilence = z.infer<typeof ZSilence>;
export const ZSilenceQuery = z.object({ state: ZSilenceState.optional().meta({ description: 'active or expired; both when absent' }) });
export const ZSilenceListResponse = z.object({ silences: z.array(ZSilence) });
export const ZSilenceResponse = z.object({ silence: ZSilence });
