// Session list filters, from the checked query parameters (lib/store/session-pages.ts turns them into SQL).
import { SESSION_DEFAULT_LIMIT, type TSessionFilterQuery, type TSessionSort } from '@/lib/contract/api/sessions';
import type { SessionFilter } from '@/lib/store/session-pages';
import { parseOpenRange } from './query-params';

export interface SessionQuery {
  filter: SessionFilter;
  sort: TSessionSort;
  limit: number;
  cursor: string | null;
}

/** The checked query parameters (ZSessionListQuery / ZSessionExportQuery) → a SessionQuery. */
export function parseSessionQuery(
  q: TSessionFilterQuery & { limit?: number; cursor?: string },
  nowMs: number,
  thresholdMs: number,
  maxMs: number,
): SessionQuery {
  const { fromMs, toMs } = parseOpenRange(q, nowMs);
  return {
    filter: {
      servers: q.server,
      states: q.state,
      flags: q.flag,
      deadlocks: q.deadlock,
      token: q.token || null,
      fromMs,
      toMs,
      nowMs,
      thresholdMs,
      maxMs,
      synthetic: q.synthetic,
      versions: q.version,
    },
    sort: q.sort,
    limit: q.limit ?? SESSION_DEFAULT_LIMIT,
    cursor: q.cursor || null,
  };
}
