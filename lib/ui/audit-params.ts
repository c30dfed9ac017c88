// The audit log's API request for a URL: read by the Audit page's client view and by its server
// render, which answers the first page (lib/ui/server-prefetch.ts), so both build it identically —
// the query key is this object. No React here.
import { AUDIT_ACTIONS, AUDIT_ENTITY_TYPES, AUDIT_MAX_LIMIT } from '@/lib/contract/api/audit';
import type { GlobalState } from './global-params';
import { listPaging } from './list-paging';
import type { AuditParams } from './query-defs';

/** The URL parameters the Audit page's filters write ("Clear filters" removes them). */
export const AUDIT_FILTER_PARAMS = ['actor', 'entityType', 'entityId', 'action'] as const;

/** The first page's request: the filters of the URL over the range of the time picker. */
export function auditListParams(get: (key: string) => string | null, global: Pick<GlobalState, 'from' | 'to'>): AuditParams {
  const text = (key: string) => get(key)?.trim() || undefined;
  return {
    from: global.from,
    to: global.to,
    actor: text('actor'),
    // Only values the API knows (a hand-edited link with a typo filters nothing rather than failing).
    entityType: AUDIT_ENTITY_TYPES.find((t) => t === get('entityType')),
    entityId: text('entityId'),
    action: AUDIT_ACTIONS.find((a) => a === get('action')),
    // Entries per "Load more" (`?limit=`, default 50), within what the API serves.
    limit: Math.min(Math.max(1, Math.trunc(listPaging(get).limit)), AUDIT_MAX_LIMIT),
  };
}
