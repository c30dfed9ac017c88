'use client';
/**
 * Query-key factories and hooks for every API the dashboard reads. Keys carry the raw
 * URL parameters (relative ranges stay relative), so each auto-refresh re-resolves
 * "now-1h" on the server and a shared link fetches exactly the same thing.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ZDeadLetterListResponse, ZDeadLetterResponse } from '@/lib/contract/api/dead-letters';
import { ZOperatorListResponse, ZAuthSessionResponse } from '@/lib/contract/api/operators';
import { ZServerListResponse } from '@/lib/contract/api/servers';
import { ZSessionDetailResponse } from '@/lib/contract/api/session-detail';
import { ZSessionListResponse } from '@/lib/contract/api/sessions';
import { ZStatsResponse } from '@/lib/contract/api/stats';
import { apiFetch, qs } from './fetcher';
import { REFRESH_MS, type RefreshMode } from './url-state';

export interface StatsParams {
  from: string;
  to: string;
  server?: string;
  bucket?: string;
}

export interface SessionListParams {
  from?: string;
  to?: string;
  server?: string;
  flag?: string;
  state?: string;
  token?: string;
  sort?: string;
  limit?: number;
  cursor?: string;
}

export interface DeadLetterParams {
  from?: string;
  to?: string;
  server?: string;
  code?: string;
  limit?: number;
  cursor?: string;
}

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

export function statsUrl(p: StatsParams): string {
  return `/api/v1/stats${qs({ from: p.from, to: p.to, server: p.server, bucket: p.bucket })}`;
}

export function sessionsUrl(p: SessionListParams, path = '/api/v1/sessions'): string {
  return `${path}${qs({
    from: p.from,
    to: p.to,
    server: p.server,
    flag: p.flag,
    state: p.state,
    token: p.token,
    sort: p.sort,
    limit: p.limit,
    cursor: p.cursor,
  })}`;
}

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

export function useServers(refresh: RefreshMode) {
  return useQuery({
    queryKey: queryKeys.servers(),
    queryFn: ({ signal }) => apiFetch('/api/v1/servers', ZServerListResponse, { signal }),
    refetchInterval: interval(refresh),
  });
}

export function deadLettersUrl(p: DeadLetterParams): string {
  return `/api/v1/admin/dead-letters${qs({ from: p.from, to: p.to, server: p.server, code: p.code, limit: p.limit, cursor: p.cursor })}`;
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
