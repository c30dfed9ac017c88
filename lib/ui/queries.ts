'use client';
/**
 * Query-key factories and hooks for every API the dashboard reads. Keys carry the raw
 * URL parameters (relative ranges stay relative), so each auto-refresh re-resolves
 * "now-1h" on the server and a shared link fetches exactly the same thing.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { ZDeadLetterListResponse, ZDeadLetterQuery, ZDeadLetterResponse } from '@/lib/contract/api/dead-letters';
import { ZOperatorListResponse, ZAuthSessionResponse } from '@/lib/contract/api/operators';
import { ZServerListResponse } from '@/lib/contract/api/servers';
import { ZProbeHistoryResponse } from '@/lib/contract/api/probes';
import { ZSessionDetailResponse } from '@/lib/contract/api/session-detail';
import { queryString } from '@/lib/contract/api/route-contract';
import { ZSessionExportQuery, ZSessionListQuery, ZSessionListResponse } from '@/lib/contract/api/sessions';
import { ZStatsQuery, ZStatsResponse } from '@/lib/contract/api/stats';
import { ZAlertHistoryResponse, ZAlertRuleListResponse, ZContactPointListResponse } from '@/lib/contract/api/alerts';
import { apiFetch } from './fetcher';
import { useStreamState } from './live-status';
import { REFRESH_MS, type RefreshMode } from './url-state';

/** Parameters as the API's query schemas take them (one schema per request: a parameter cannot exist here only). */
export type StatsParams = z.input<typeof ZStatsQuery>;
export type SessionListParams = z.input<typeof ZSessionListQuery>;
export type SessionExportParams = z.input<typeof ZSessionExportQuery>;
export type DeadLetterParams = z.input<typeof ZDeadLetterQuery>;

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
  alertHistory: () => [...queryKeys.all, 'alert-history'] as const,
  contactPoints: () => [...queryKeys.all, 'contact-points'] as const,
};

// URLs are built from the query schemas' shapes, in the same order the server reads them.
export const statsUrl = (p: StatsParams) => `/api/v1/stats${queryString(ZStatsQuery, p)}`;
export const sessionsUrl = (p: SessionListParams) => `/api/v1/sessions${queryString(ZSessionListQuery, p)}`;
export const sessionExportUrl = (p: SessionExportParams) => `/api/v1/sessions/export${queryString(ZSessionExportQuery, p)}`;
export const deadLettersUrl = (p: DeadLetterParams) => `/api/v1/admin/dead-letters${queryString(ZDeadLetterQuery, p)}`;

export function sessionDetailUrl(server: string, token: string): string {
  return `/api/v1/servers/${encodeURIComponent(server)}/sessions/${encodeURIComponent(token)}`;
}

/** While the live stream is down the page refreshes on this interval instead (and says so). */
export const FALLBACK_REFRESH_MS = 5000;
/** A relative range ("now-15m") moves with time: refetch with a moving now even when nothing is pushed. */
export const RELATIVE_FOLLOW_MS = 10_000;

const isRelative = (p: { from?: string; to?: string }) =>
  [p.from, p.to].some((v) => v === undefined || v === '' || v.trim().startsWith('now'));

/** The refetch interval for a query: none while pushed changes arrive, except to move a relative range. */
function useInterval(refresh: RefreshMode, range?: { from?: string; to?: string }): number | false {
  const stream = useStreamState();
  if (refresh !== 'live') return REFRESH_MS[refresh];
  if (stream === 'down') return FALLBACK_REFRESH_MS;
  return range && isRelative(range) ? RELATIVE_FOLLOW_MS : false;
}

export function useStats(p: StatsParams, refresh: RefreshMode) {
  const refetchInterval = useInterval(refresh, p);
  return useQuery({
    queryKey: queryKeys.stats(p),
    queryFn: ({ signal }) => apiFetch(statsUrl(p), ZStatsResponse, { signal }),
    refetchInterval,
    placeholderData: keepPreviousData,
  });
}

export function useSessions(p: SessionListParams, refresh: RefreshMode) {
  const refetchInterval = useInterval(refresh, p);
  return useQuery({
    queryKey: queryKeys.sessions(p),
    queryFn: ({ signal }) => apiFetch(sessionsUrl(p), ZSessionListResponse, { signal }),
    refetchInterval,
    placeholderData: keepPreviousData,
  });
}

export function useSessionDetail(server: string, token: string, refresh: RefreshMode) {
  const refetchInterval = useInterval(refresh);
  return useQuery({
    queryKey: queryKeys.session(server, token),
    queryFn: ({ signal }) => apiFetch(sessionDetailUrl(server, token), ZSessionDetailResponse, { signal }),
    refetchInterval,
    placeholderData: undefined,
  });
}

/** Token lookup across all time and all servers (does not depend on the time picker). */
export function useTokenLookup(token: string) {
  return useQuery({
    queryKey: queryKeys.tokenLookup(token),
    queryFn: ({ signal }) => apiFetch(sessionsUrl({ token, limit: 50 }), ZSessionListResponse, { signal }),
    enabled: token.length > 0,
    placeholderData: undefined,
  });
}

/** `range`: the window of the refused-request counts (default: the API's, now-15m). */
export function useServers(refresh: RefreshMode, range?: { from: string; to: string }) {
  const refetchInterval = useInterval(refresh);
  const url = range ? `/api/v1/servers?${new URLSearchParams(range).toString()}` : '/api/v1/servers';
  return useQuery({
    queryKey: [...queryKeys.servers(), range ?? null],
    queryFn: ({ signal }) => apiFetch(url, ZServerListResponse, { signal }),
    refetchInterval,
  });
}

/** A server's door-probe target and recent runs (docs/probes.md). */
export function useProbeHistory(server: string, refresh: RefreshMode) {
  const refetchInterval = useInterval(refresh);
  return useQuery({
    queryKey: queryKeys.probes(server),
    queryFn: ({ signal }) => apiFetch(`/api/v1/servers/${encodeURIComponent(server)}/probes?limit=20`, ZProbeHistoryResponse, { signal }),
    refetchInterval,
  });
}

export function useDeadLetters(p: DeadLetterParams, refresh: RefreshMode) {
  const refetchInterval = useInterval(refresh, p);
  return useQuery({
    queryKey: queryKeys.deadLetters(p),
    queryFn: ({ signal }) => apiFetch(deadLettersUrl(p), ZDeadLetterListResponse, { signal }),
    refetchInterval,
    placeholderData: keepPreviousData,
  });
}

/** The whole payload of one dead letter, fetched only when an operator asks for it. */
export function useDeadLetter(id: string, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.deadLetter(id),
    queryFn: ({ signal }) => apiFetch(`/api/v1/admin/dead-letters/${encodeURIComponent(id)}`, ZDeadLetterResponse, { signal }),
    enabled,
    staleTime: Infinity,
  });
}

export function useMe() {
  return useQuery({
    queryKey: queryKeys.me(),
    queryFn: ({ signal }) => apiFetch('/api/auth/me', ZAuthSessionResponse, { signal }),
    staleTime: 60_000,
    retry: false,
  });
}

export function useOperators(enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.operators(),
    queryFn: ({ signal }) => apiFetch('/api/v1/operators', ZOperatorListResponse, { signal }),
    enabled,
  });
}

/** Alert rules and their states: every page's banner reads it, so it refreshes on its own. */
// Alert states change on the evaluation schedule, not with ingest, so the change stream says nothing
// about them: alert queries poll on their own, live or not (the banner and the Alerts page).
const ALERT_POLL_MS = 5_000;

export function useAlertRules() {
  return useQuery({
    queryKey: queryKeys.alertRules(),
    queryFn: ({ signal }) => apiFetch('/api/v1/alerts/rules', ZAlertRuleListResponse, { signal }),
    refetchInterval: ALERT_POLL_MS,
  });
}

export function useAlertHistory(refresh: RefreshMode) {
  const refetchInterval = useInterval(refresh);
  return useQuery({
    queryKey: queryKeys.alertHistory(),
    queryFn: ({ signal }) => apiFetch('/api/v1/alerts/history?limit=200', ZAlertHistoryResponse, { signal }),
    refetchInterval: refetchInterval || ALERT_POLL_MS,
  });
}

export function useContactPoints() {
  return useQuery({
    queryKey: queryKeys.contactPoints(),
    queryFn: ({ signal }) => apiFetch('/api/v1/alerts/contact-points', ZContactPointListResponse, { signal }),
  });
}
