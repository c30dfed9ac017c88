// Bearer tokens recently verified against the database, so a scrape can be authorised while the
// database is unreachable: /metrics must keep serving process metrics and `doorwatch_database_up 0`
// through an outage, or the instance looks dead exactly when it is most needed. Only a token this
// process verified within OUTAGE_GRACE_MS is admitted, only when the lookup failed with a
// retryable database error, and only for the scrape role's route (authorize decides). Keyed by
// the token's hash, never the token.
import { isRetryableDatabaseError } from '@/lib/db/database-errors';
import { processSingleton } from '@/lib/config/process-state';
import { hashToken } from './tokens';
import { monotonicMs } from '@/lib/time/steady-clock';
import type { OperatorRecord } from '@/lib/store/operators';

export const OUTAGE_GRACE_MS = 10 * 60_000;
const MAX_ENTRIES = 256;

const verified = () => processSingleton('doorwatchVerifiedTokens', () => new Map<string, { record: OperatorRecord; at: number }>());

/**
 * `lookup` of `token`; when it fails with a retryable database error and `allowStale`, the
 * record this process last verified for the token (if within the grace period) instead.
 */
export async function lookupWithOutageGrace(
  token: string,
  allowStale: boolean,
  lookup: () => Promise<OperatorRecord | null>,
  now = monotonicMs(), // the grace is a duration measured in this process: a clock step must not stretch it
): Promise<OperatorRecord | null> {
  const key = hashToken(token);
  try {
    const found = await lookup();
    const cache = verified();
    cache.delete(key);
    if (found) {
      cache.set(key, { record: found, at: now });
      if (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value!);
    }
    return found;
  } catch (err) {
    const last = verified().get(key);
    if (allowStale && last && now - last.at <= OUTAGE_GRACE_MS && isRetryableDatabaseError(err)) return last.record;
    throw err;
  }
}
