// The one place that decides what a database failure means for the caller. Only trouble a
// retry can cure (connection refused or lost, the server shutting down, a lock or pool wait
// that timed out, a serialization conflict) is answered 503 + Retry-After: senders retry it
// with backoff. Anything else (a value the database refuses, a bug) would fail again on every
// retry, so it must never be a 503: ingest isolates and dead-letters it instead (lib/ingest/ingest-events.ts).
import { isSqliteBusy } from './sqlite-busy';

// PostgreSQL SQLSTATEs: 08 connection exception, 53 insufficient resources, 57P0x shutdown /
// cannot connect now, 57014 statement timeout/cancel, 40001 serialization, 40P01 deadlock,
// 55P03 lock not available.
const PG_RETRYABLE = /^(08|53|57P0|57014|40001|40P01|55P03)/;
const NODE_NET = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND']);
// Prisma: P1001 can't reach, P1002 timed out, P1008 operation timed out, P1017 connection
// closed, P2024 pool timeout, P2034 write conflict or deadlock.
const PRISMA_RETRYABLE = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2034']);
// node-postgres reports a lost or unobtainable connection as a plain Error.
const PG_CONNECTION_MESSAGE =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|terminating connection/i;

/**
 * The errors nested in `err`: its cause chain, and the driver error Prisma 7 keeps in
 * `meta.driverAdapterError` (a P2039 whose SQLSTATE says "shutting down" is as retryable as the
 * plain pg error). Bounded, so a cyclic or hostile chain cannot loop.
 */
function nestedErrors(err: unknown): object[] {
  const out: object[] = [];
  const queue: unknown[] = [err];
  while (queue.length > 0 && out.length < 12) {
    const e = queue.shift();
    if (!e || typeof e !== 'object' || out.includes(e)) continue;
    out.push(e);
    queue.push((e as { cause?: unknown }).cause, (e as { meta?: { driverAdapterError?: unknown } }).meta?.driverAdapterError);
    if (e instanceof AggregateError) queue.push(...e.errors);
  }
  return out;
}

/** True when the same request may succeed if retried later. */
export function isRetryableDatabaseError(err: unknown): boolean {
  if (isSqliteBusy(err)) return true;
  return nestedErrors(err).some((e) => {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') {
      if (NODE_NET.has(code) || PRISMA_RETRYABLE.has(code)) return true;
      if (/^[0-9A-Z]{5}$/.test(code) && PG_RETRYABLE.test(code)) return true;
    }
    const kind = (e as { kind?: unknown }).kind;
    if (kind === 'DatabaseNotReachable' || kind === 'ConnectionClosed') return true;
    const message = (e as { message?: unknown }).message;
    return typeof message === 'string' && PG_CONNECTION_MESSAGE.test(message);
  });
}

/** The first line of a database error, short enough for a log field or a dead letter. */
export const databaseErrorLine = (err: unknown) =>
  err instanceof Error ? err.message.split('\n')[0].slice(0, 200) : String(err).slice(0, 200);
