// The sessions list's API request for a URL: read by the list's client view and by the page's
// server render, which answers the same request first (lib/ui/server-prefetch.ts), so both must
// build it identically — the query key is this object.
import { SESSION_SORTS, SYNTHETIC_FILTERS } from '@/lib/contract/api/sessions';
import { ZServerVersion } from '@/lib/contract/ingest-envelope';
import { DEADLOCK_STATUSES, SESSION_FLAGS, SESSION_STATES } from '@/lib/contract/summary';
import type { GlobalState } from './global-params';
import { listPaging, splitList } from './list-paging';
import type { SessionListParams } from './query-defs';

/** The request, with the sort and the probe filter always resolved (the view shows both). */
export type ResolvedSessionListParams = SessionListParams & Required<Pick<SessionListParams, 'sort' | 'synthetic'>>;

export function sessionListParams(
  get: (key: string) => string | null,
  global: Pick<GlobalState, 'from' | 'to' | 'server'>,
): ResolvedSessionListParams {
  const flags = splitList(get('flag'));
  const states = splitList(get('state'));
  const deadlocks = splitList(get('deadlock'));
  const token = get('token') ?? '';
  const sortParam = get('sort') ?? '-lastEventAt';
  const { limit, cursor } = listPaging(get);
  return {
    from: global.from,
    to: global.to,
    server: global.server ? [global.server] : [],
    // Only values the API knows (a hand-edited link with a typo filters nothing rather than failing).
    flag: SESSION_FLAGS.filter((f) => flags.includes(f)),
    state: SESSION_STATES.filter((s) => states.includes(s)),
    deadlock: DEADLOCK_STATUSES.filter((d) => deadlocks.includes(d)),
    token: token || undefined,
    // Well-formed versions only, as for the flags: a typo in a link filters nothing instead of failing.
    version: splitList(get('version')).filter((v) => ZServerVersion.safeParse(v).success),
    sort: SESSION_SORTS.find((s) => s === sortParam) ?? '-lastEventAt',
    synthetic: SYNTHETIC_FILTERS.find((v) => v === get('synthetic')) ?? 'include',
    limit,
    cursor: cursor || undefined,
  };
}
