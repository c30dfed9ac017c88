'use client';
/**
 * The query hooks for every API the dashboard reads. Keys, URLs and response schemas come from
 * lib/ui/query-defs.ts, which the server's first render (lib/ui/server-prefetch.ts) shares, so a
 * page's server-rendered data lands under exactly the key its hook reads.
 */
import { keepPreviousData, useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { ZAuditListResponse, type TAuditListResponse } from '@/lib/contract/api/audit';
import { ZDeadLetterListResponse, ZDeadLetterResponse } from '@/lib/contract/api/dead-letters';
import { ZOperatorListResponse } from '@/lib/contract/api/operators';
import { ZProbeHistoryResponse } from '@/lib/contract/api/probes';
import { ZSessionListResponse } from '@/lib/contract/api/sessions';
import { ZAlertHistoryResponse, ZContactPointListResponse } from '@/lib/contract/api/alerts';
import { apiFetch } from './fetcher';
import { useStreamState } from './live-status';
import {
  alertRulesQuery,
  annotationsQuery,
  auditQuery,
  auditUrl,
  deadLettersUrl,
  incidentQuery,
  incidentsQuery,
  silencesQuery,
  meQuery,
  queryKeys,
  serversQuery,
  sessionDetailQuery,
  sessionsQuery,
  sessionsUrl,
  statsQuery,
  type AnnotationParams,
  type AuditParams,
  type DeadLetterParams,
  type IncidentDetailParams,
  type SilenceParams,
  type IncidentListParams,
  type QueryDef,
  type SessionListParams,
  type StatsParams,
} from './query-defs';
import { REFRESH_MS, type RefreshMode } from './global-params';

/** The browser's query function for a shared definition: the same URL and schema the server reads. */
const fetchDef =
  <T>(def: QueryDef<T>) =>
  ({ signal }: { signal: AbortSignal }) =>
    apiFetch(def.url, def.schema, { signal });

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
  const def = statsQuery(p);
  return useQuery({
    queryKey: def.queryKey,
    queryFn: fetchDef(def),
    refetchInterval,
    placeholderData: keepPreviousData,
  });
}

/** The markers of a window's time charts: annotations and the versions first reported in it. */
export function useAnnotations(p: AnnotationParams, refresh: RefreshMode) {
  const refetchInterval = useInterval(refresh, p);
  const def = annotationsQuery(p);
  return useQuery({ queryKey: def.queryKey, queryFn: fetchDef(def), refetchInterval, placeholderData: keepPreviousData });
}

export function useSessions(p: SessionListParams, refresh: RefreshMode) {
  const refetchInterval = useInterval(refresh, p);
  const def = sessionsQuery(p);
  return useQuery({
    queryKey: def.queryKey,
    queryFn: fetchDef(def),
    refetchInterval,
    placeholderData: keepPreviousData,
  });
}

export function useSessionDetail(server: string, token: string, refresh: RefreshMode) {
  const refetchInterval = useInterval(refresh);
  const def = sessionDetailQuery(server, token);
  return useQuery({
    queryKey: def.queryKey,
    queryFn: fetchDef(def),
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
  const def = serversQuery(range);
  return useQuery({
    queryKey: def.queryKey,
    queryFn: fetchDef(def),
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
  const def = meQuery();
  return useQuery({
    queryKey: def.queryKey,
    queryFn: fetchDef(def),
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
  const def = alertRulesQuery();
  return useQuery({
    queryKey: def.queryKey,
    queryFn: fetchDef(def),
    refetchInterval: ALERT_POLL_MS,
  });
}

/** The newest 200 state changes, of the given kinds (none: all) and of one rule (its id; null: every rule), with the total that match. */
export function useAlertHistory(refresh: RefreshMode, kinds: readonly string[] = [], rule: string | null = null) {
  const refetchInterval = useInterval(refresh);
  const kind = kinds.length ? `&kind=${encodeURIComponent(kinds.join(','))}` : '';
  const ofRule = rule ? `&rule=${encodeURIComponent(rule)}` : '';
  return useQuery({
    queryKey: queryKeys.alertHistory({ kinds, rule }),
    queryFn: ({ signal }) => apiFetch(`/api/v1/alerts/history?limit=200${kind}${ofRule}`, ZAlertHistoryResponse, { signal }),
    refetchInterval: refetchInterval || ALERT_POLL_MS,
    placeholderData: keepPreviousData,
  });
}

export function useContactPoints() {
  return useQuery({
    queryKey: queryKeys.contactPoints(),
    queryFn: ({ signal }) => apiFetch('/api/v1/alerts/contact-points', ZContactPointListResponse, { signal }),
  });
}

/** Incidents change with the leader's sweep (every alert interval): polled like the alert rules. */
export function useIncidents(p: IncidentListParams) {
  const def = incidentsQuery(p);
  return useQuery({ queryKey: def.queryKey, queryFn: fetchDef(def), refetchInterval: ALERT_POLL_MS, placeholderData: keepPreviousData });
}

/** Silences end on their own (endsAt) and count what they suppress: polled like incidents. */
export function useSilences(p: SilenceParams) {
  const def = silencesQuery(p);
  return useQuery({ queryKey: def.queryKey, queryFn: fetchDef(def), refetchInterval: ALERT_POLL_MS });
}

export function useIncident(id: string, p: IncidentDetailParams) {
  const def = incidentQuery(id, p);
  return useQuery({ queryKey: def.queryKey, queryFn: fetchDef(def), refetchInterval: ALERT_POLL_MS });
}

/**
 * The audit log, newest first, as far as "Load more" has read (admins only). Its first
 * page is the one the page's server render answered (auditQuery's key), so the rows are in the first
 * HTML. A refresh re-reads every loaded page from the newest (keyset cursors), so an entry written
 * meanwhile neither shifts nor hides an older one.
 */
export function useAuditLog(p: AuditParams, refresh: RefreshMode) {
  const qc = useQueryClient();
  const refetchInterval = useInterval(refresh, p);
  const first = auditQuery(p);
  return useInfiniteQuery({
    queryKey: [...first.queryKey, 'pages'],
    queryFn: ({ pageParam, signal }) => apiFetch(auditUrl({ ...p, cursor: pageParam ?? undefined }), ZAuditListResponse, { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    initialData: () => {
      const page = qc.getQueryData<TAuditListResponse>(first.queryKey);
      return page && { pages: [page], pageParams: [null] };
    },
    initialDataUpdatedAt: () => qc.getQueryState(first.queryKey)?.dataUpdatedAt,
    refetchInterval,
    placeholderData: keepPreviousData,
  });
}
