// Session's "token" as its index compares it. SQLite compares text bytewise (BINARY), so
// Session_token_idx serves both lookups by token and the list's prefix ranges. On PostgreSQL a prefix
// is a range only bytewise, whatever the database's collation, so its token index is
// Session_token_c_idx on ("token" COLLATE "C") (migration 20261129140000), and every token comparison
// names "C" to use it. For equality that changes nothing (a database's default collation is
// deterministic, and a deterministic collation's equality is byte equality); it let PostgreSQL's
// default-collation Session_token_idx go, one random-keyed entry less on every session row written
// (migration 20261205040000_session_partial_indexes).
import type { Provider } from '@/lib/config/database-url';

/** `"token"`, or `alias."token"`, in the token index's collation. */
export function sessionTokenTerm(provider: Provider, alias?: string): string {
  const column = alias ? `${alias}."token"` : '"token"';
  return provider === 'postgresql' ? `${column} COLLATE "C"` : column;
}
