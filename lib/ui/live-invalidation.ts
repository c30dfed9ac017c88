// Which cached queries a pushed change makes stale. Stats and server lists always (every change
// moves a count or a last-seen); session lists unless filtered to another server; a session
// detail or token lookup only if its token changed. Keys are the ones lib/ui/queries.ts builds.
import { touchesServer, touchesToken, type Change } from '@/lib/live/change';

const serversOf = (params: unknown): string[] => {
  const server = (params as { server?: unknown } | undefined)?.server;
  if (typeof server === 'string') return server ? [server] : [];
  return Array.isArray(server) ? server.filter((s): s is string => typeof s === 'string' && s !== '') : [];
};

export function isAffected(change: Change, queryKey: readonly unknown[]): boolean {
  if (queryKey[0] !== 'doorwatch') return false;
  const kind = queryKey[1];
  switch (kind) {
    case 'stats':
    case 'servers':
    case 'admin-servers':
    case 'dead-letters':
      return true;
    case 'sessions': {
      const filter = serversOf(queryKey[2]);
      return filter.length === 0 || filter.some((s) => touchesServer(change, s));
    }
    case 'session':
      return touchesToken(change, String(queryKey[2]), String(queryKey[3]));
    case 'token-lookup':
      return change.allTokens || change.tokens.some((t) => t.token === queryKey[2]);
    default:
      return false;
  }
}
