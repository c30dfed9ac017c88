// The "one server" condition of a Session read that a time-range index drives (deadlock starts,
// refusal and renegotiation latencies, version splits). SQLite plans without statistics (nobody
// runs ANALYZE), and then takes an equality over a range: it walked Session_server_lastEventAt_idx,
// every session the server ever had, to find the few in a fifteen-minute range. That made each
// per-server stats read (the overview filtered to a server, every alert rule per server) cost
// O(history): ~190 ms at 100,000 sessions a server, measured in the soak, where the alert pass
// grew to seconds of blocked event loop every 15 s. SQLite's unary + keeps a term out of index
// choice (its documented way to steer the planner), so the range index leads and the server is
// checked on the rows it yields. PostgreSQL keeps statistics and plans this itself; + on text is
// not an operator there.
import type { Provider } from '@/lib/config/database-url';

/** ` AND "server" = ?` (with SQLite's + on the column), or nothing for all servers. */
export function sessionServerTerm(provider: Provider, server: string | null): { text: string; params: string[] } {
  if (server === null) return { text: '', params: [] };
  return { text: provider === 'sqlite' ? ' AND +"server" = ?' : ' AND "server" = ?', params: [server] };
}
