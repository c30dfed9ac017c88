/**
 * Query keys, URLs and response schemas of the dashboard's reads, shared by the browser's hooks
 * (lib/ui/queries.ts) and the server's first render (lib/ui/server-prefetch.ts): one definition, so
 * the data a page renders on the server is hydrated under exactly the key its hook asks for, read
 * through the same URL and checked against the same zod contract. Keys carry the raw URL
 * parameters (relative ranges stay relative), so each refresh re-resolves "now-1h" on the server
 * and a shared link fetches exactly the same thing. No React here: the server imports it.
 */
import type { z } from 'zod';
import { ZAlertRuleListResponse } from '@/lib/contract/api/alerts';
import { ZAnnotationListQuery, ZAnnotationListResponse } from '@/lib/contract/api/annotations';
import { ZAuditListQuery, ZAuditListResponse } from '@/lib/contract/api/audit';
import { ZDeadLetterQuery } from '@/lib/contract/api/dead-letters';
import {
  ZIncidentDetail,
  ZIncidentDetailQuery,
  ZIncidentListQuery,
  ZIncidentListResponse,
  ZSilenceListResponse,
  ZSilenceQuery,
} from '@/lib/contract/api/incidents';
import { ZAuthSessionResponse } from '@/lib/contract/api/operators';
import { queryString } from '@/lib/contract/api/route-contract';
import { ZServerListResponse } from '@/lib/contract/api/servers';
import { ZSessionDetailResponse } from '@/lib/contract/api/session-detail';
import { ZSessionExportQuery, ZSessionListQuery, ZSessionListResponse } from '@/lib/contract/api/sessions';
import { ZStatsQuery, ZStatsResponse } from '@/lib/contract/api/stats';
import { chooseBucket } from '@/lib/time/buckets';
import { resolveTimeRangeOrDefault } from '@/lib/time/range';

/** Parameters as the API's query schemas take them (one schema per request: a parameter cannot exist here only). */
export type StatsParams = z.input<typeof ZStatsQuery>;
export type SessionListParams = z.input<typeof ZSessionListQuery>;
export type SessionExportParams = z.input<typeof ZSessionExportQuery>;
export type DeadLetterParams = z.input<typeof ZDeadLetterQuery>;
export type IncidentListParams = z.input<typeof ZIncidentListQuery>;
export type IncidentDetailParams = z.input<typeof ZIncidentDetailQuery>;
export type AnnotationParams = z.input<typeof ZAnnotationListQuery>;
export type SilenceParams = z.input<typeof ZSilenceQuery>;
export type AuditParams = z.input<typeof ZAuditListQuery>;

export const queryKeys = {
  all: ['doorwatch'] as const,
  me: () => [...queryKeys.all, 'me'] as const,
  stats: (p: StatsParams) => [...queryKeys.all, 'stats', p] as const,
  sessions: (p: SessionListParams) => [...queryKeys.all, 'sessions', p] as const,
  session: (server: string, token: string) => [...queryKeys.all, 'session', server, token] as const,
  tokenLookup: (token: string) => [...queryKeys.all, 'token-lookup', token] as const,
  servers: () => [...queryKeys.all, 'servers'] as const,
  probes: (server: string) => [...queryKeys.all, 'probes', server] as const,
  adminServers: () => [...queryKeys.all, 'admin-servers'] as const,
  operators: () => [...queryKeys.all, 'operators'] as const,
  deadLetters: (p: DeadLetterParams) => [...queryKeys.all, 'dead-letters', p] as const,
  deadLetter: (id: string) => [...queryKeys.all, 'dead-letter', id] as const,
  alertRules: () => [...queryKeys.all, 'alert-rules'] as const,
  /** Without parameters: the prefix of every filtered history (what invalidation uses), as for incidents. */
  alertHistory: (...p: unknown[]) => [...queryKeys.all, 'alert-history', ...p] as const,
  contactPoints: () => [...queryKeys.all, 'contact-points'] as const,
  /** Without parameters: the prefix of every incident read (what invalidation after an action uses). */
  incidents: (...p: unknown[]) => [...queryKeys.all, 'incidents', ...p] as const,
  annotations: (p: AnnotationParams) => [...queryKeys.all, 'annotations', p] as const,
  /** Without parameters: the prefix of every silence list (what invalidation after a change uses). */
  silences: (...p: unknown[]) => [...queryKeys.all, 'silences', ...p] as const,
  audit: (p: AuditParams) => [...queryKeys.all, 'audit', p] as const,
};

// URLs are built from the query schemas' shapes, in the same order the server reads them.
export const statsUrl = (p: StatsParams) => `/api/v1/stats${queryString(ZStatsQuery, p)}`;
export const sessionsUrl = (p: SessionListParams) => `/api/v1/sessions${queryString(ZSessionListQuery, p)}`;
export const sessionExportUrl = (p: SessionExportParams) => `/api/v1/sessions/export${queryString(ZSessionExportQuery, p)}`;
export const deadLettersUrl = (p: DeadLetterParams) => `/api/v1/admin/dead-letters${queryString(ZDeadLetterQuery, p)}`;
/** The audit log: one page (`cursor=`), or with `format=` the whole filtered set as a download. */
export const auditUrl = (p: AuditParams) => `/api/v1/audit${queryString(ZAuditListQuery, p)}`;

export function sessionDetailUrl(server: string, token: string): string {
  return `/api/v1/servers/${encodeURIComponent(server)}/sessions/${encodeURIComponent(token)}`;
}

/** One read: its cache key, the same-origin URL it is fetched from and the schema of the answer. */
export interface QueryDef<T = unknown> {
  queryKey: readonly unknown[];
  url: string;
  schema: z.ZodType<T>;
}

export const statsQuery = (p: StatsParams): QueryDef<z.output<typeof ZStatsResponse>> => ({
  queryKey: queryKeys.stats(p),
  url: statsUrl(p),
  schema: ZStatsResponse,
});

export const sessionsQuery = (p: SessionListParams): QueryDef<z.output<typeof ZSessionListResponse>> => ({
  queryKey: queryKeys.sessions(p),
  url: sessionsUrl(p),
  schema: ZSessionListResponse,
});

export const sessionDetailQuery = (server: string, token: string): QueryDef<z.output<typeof ZSessionDetailResponse>> => ({
  queryKey: queryKeys.session(server, token),
  url: sessionDetailUrl(server, token),
  schema: ZSessionDetailResponse,
});

/** `range`: the window of the refused-request counts (default: the API's, now-15m). */
export const serversQuery = (range?: { from: string; to: string }): QueryDef<z.output<typeof ZServerListResponse>> => ({
  queryKey: [...queryKeys.servers(), range ?? null],
  url: range ? `/api/v1/servers?${new URLSearchParams(range).toString()}` : '/api/v1/servers',
  schema: ZServerListResponse,
});

/** Annotations and first-reported versions in a window: the time charts' markers. */
export const annotationsQuery = (p: AnnotationParams): QueryDef<z.output<typeof ZAnnotationListResponse>> => ({
  queryKey: queryKeys.annotations(p),
  url: `/api/v1/annotations${queryString(ZAnnotationListQuery, p)}`,
  schema: ZAnnotationListResponse,
});

export const meQuery = (): QueryDef<z.output<typeof ZAuthSessionResponse>> => ({
  queryKey: queryKeys.me(),
  url: '/api/auth/me',
  schema: ZAuthSessionResponse,
});

export const alertRulesQuery = (): QueryDef<z.output<typeof ZAlertRuleListResponse>> => ({
  queryKey: queryKeys.alertRules(),
  url: '/api/v1/alerts/rules',
  schema: ZAlertRuleListResponse,
});

export const incidentsQuery = (p: IncidentListParams): QueryDef<z.output<typeof ZIncidentListResponse>> => ({
  queryKey: queryKeys.incidents('list', p),
  url: `/api/v1/incidents${queryString(ZIncidentListQuery, p)}`,
  schema: ZIncidentListResponse,
});

export const silencesQuery = (p: SilenceParams): QueryDef<z.output<typeof ZSilenceListResponse>> => ({
  queryKey: queryKeys.silences(p),
  url: `/api/v1/silences${queryString(ZSilenceQuery, p)}`,
  schema: ZSilenceListResponse,
});

/** The audit log's first page under the URL's filters (the page's server render answers it). */
export const auditQuery = (p: AuditParams): QueryDef<z.output<typeof ZAuditListResponse>> => ({
  queryKey: queryKeys.audit(p),
  url: auditUrl(p),
  schema: ZAuditListResponse,
});

export const incidentQuery = (id: string, p: IncidentDetailParams): QueryDef<z.output<typeof ZIncidentDetail>> => ({
  queryKey: queryKeys.incidents('detail', id, p),
  url: `/api/v1/incidents/${encodeURIComponent(id)}${queryString(ZIncidentDetailQuery, p)}`,
  schema: ZIncidentDetail,
});

/**
 * The overview's stats request for the URL's range and server filter: the bucket is the one the
 * server's own chooser picks for the range resolved at `nowMs` (a relative range's span does not
 * depend on now, so the server's first render and the browser agree).
 */
export function overviewStatsParams(g: { from: string; to: string; server: string }, nowMs: number): StatsParams {
  const r = resolveTimeRangeOrDefault(g.from, g.to, nowMs);
  return { from: g.from, to: g.to, server: g.server ? [g.server] : [], bucket: chooseBucket(r.toMs - r.fromMs).expr, split: 'server' };
}
