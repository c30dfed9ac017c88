// Read-after-write for operators when reads go to a replica (DATABASE_READ_URL). A change an
// operator makes (any successful non-GET) is committed on the primary; the page reloads right
// after and reads from the replica, which may not have replayed it yet. So a change answers with
// a short-lived cookie holding the primary's WAL position after it, and a replica-routed read
// that carries the cookie reads from the replica only once the replica has replayed past that
// position, else from the primary. Without a replica, or for Bearer clients that ignore cookies,
// nothing changes (a script that needs its own writes back can read /api/v1/admin/* which always
// reads the primary).
import type { Db } from '@/lib/db/client';
import { LSN, primaryWalPosition, replayedPast } from '@/lib/db/replica-position';
import { isHttps, readCookie } from '@/lib/auth/session-cookie';

export const WRITTEN_COOKIE = 'doorwatch_written';
/** Far above any healthy replica's lag; past it the replica is read again regardless. */
export const WRITTEN_COOKIE_MAX_AGE_S = 60;

/** The Set-Cookie value for a change just committed on `primary`. */
export async function writtenCookie(request: Request, primary: Db): Promise<string> {
  const lsn = await primaryWalPosition(primary.sql);
  const attrs = [`${WRITTEN_COOKIE}=${lsn}`, 'Path=/', 'HttpOnly', 'SameSite=Strict', `Max-Age=${WRITTEN_COOKIE_MAX_AGE_S}`];
  if (isHttps(request)) attrs.push('Secure');
  return attrs.join('; ');
}

/** The replica, unless this caller wrote something the replica has not replayed yet. */
export async function readDbFor(request: Request, primary: () => Db, replica: Db): Promise<Db> {
  const lsn = readCookie(request, WRITTEN_COOKIE);
  if (!lsn || !LSN.test(lsn)) return replica;
  try {
    return (await replayedPast(replica.sql, lsn)) ? replica : primary();
  } catch {
    return primary();
  }
}
