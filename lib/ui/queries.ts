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
import { ZSessionDetailResponse } from '@/lib/contract/api/session-detail';
import { queryString } from '@/lib/contract/api/route-contract';
import { ZSessionExportQuery, ZSessionListQuery, ZSessionListResponse } from '@/lib/contract/api/sessions';
import { ZStatsQuery, ZStatsResponse } from '@/lib/contract/api/stats';
import { apiFetch } from './fetcher';
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
  adminServers: () => [...queryKeys.all, 'admin-servers'] as const,
  operators: () => [...queryKeys.all, 'operators'] as const,
  deadLetters: (p: DeadLetterParams) => [...queryKeys.all, 'dead-letters', p] as const,
  deadLetter: (id: string) => [...queryKeys.all, 'dead-letter', id] as const,
};

// URLs are built from the query schemas' shapes, in the same order the server reads them.
export const statsUrl = (p: StatsParams) => `/api/v1/stats${queryString(ZStatsQuery, p)}`;
export const sessionsUrl = (p: SessionListParams) => `/api/v1/sessions${queryString(ZSessionListQuery, p)}`;
export const sessionExportUrl = (p: SessionExportParams) => `/api/v1/sessions/export${queryString(ZSessionExportQuery, p)}`;
export const deadLettersUrl = (p: DeadLetterParams) => `/api/v1/admin/dead-letters${queryString(ZDeadLetterQuery, p)}`;

export function sessionDetailUrl(server: string, token: string): string {
  return `/api/v1/servers/${encodeURIComponent(server)}/sessions/${encodeURIComponent(token)}`;
}

const interval = (refresh: RefreshMode) => REFRESH_MS[refresh];

export function useStats(p: StatsParams, refresh: RefreshMode) {
  return useQuery({
    queryKey: queryKeys.stats(p),
    queryFn: ({ signal }) => apiFetch(statsUrl(p), ZStatsResponse, { signal }),
    refetchInterval: interval(refresh),
    placeholderData: keepPreviousData,
  });
}

export function useSessions(p: SessionListParams, refresh: RefreshMode) {
  return useQuery({
    queryKey: queryKeys.sessions(p),
    queryFn: ({ signal }) => apiFetch(sessionsUrl(p), ZSessionListResponse, { signal }),
    refetchInterval: interval(refresh),
    placeholderData: keepPreviousData,
  });
}

export function useSessionDetail(server: string, token: string, refresh: RefreshMode) {
  return useQuery({
    queryKey: queryKeys.session(server, token),
    queryFn: ({ signal }) => apiFetch(sessionDetailUrl(server, token), ZSessionDetailResponse, { signal }),
    refetchInterval: interval(refresh),
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
  const url = range ? `/api/v1/servers?${new URLSearchParams(range).toString()}` : '/api/v1/servers';
  return useQuery({
    queryKey: [...queryKeys.servers(), range ?? null],
    queryFn: ({ signal }) => apiFetch(url, ZServerListResponse, { signal }),
    refetchInterval: interval(refresh),
  });
}

export function useDeadLetters(p: DeadLetterParams, refresh: RefreshMode) {
  return useQuery({
    queryKey: queryKeys.deadLetters(p),
    queryFn: ({ signal }) => apiFetch(deadLettersUrl(p), ZDeadLetterListResponse, { signal }),
    refetchInterval: interval(refresh),
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
