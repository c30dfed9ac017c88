// The one place that decides what a database failure means for the caller. Only trouble a
// retry can cure (connection refused or lost, the server shutting down, a lock or pool wait
// that timed out, a serialization conflict) is answered 503 + Retry-After: senders retry it
// with backoff. A full disk is such trouble too (the write is rolled back whole, and succeeds once
// space is freed), answered with its own code so an operator knows what to fix. Anything else (a value the database refuses, a bug) would fail again on every
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

// SQLITE_FULL (extended codes too), PostgreSQL 53100 disk_full, and the OS's own ENOSPC.
const DISK_FULL = /^(SQLITE_FULL|53100$|ENOSPC$)/;

/** True when the database refused a write for lack of disk space (retryable once space is freed). */
export function isDatabaseFull(err: unknown): boolean {
  return nestedErrors(err).some((e) => {
    const code = (e as { code?: unknown }).code;
    return typeof code === 'string' && DISK_FULL.test(code);
  });
}

/** True when the same request may succeed if retried later. */
export function isRetryableDatabaseError(err: unknown): boolean {
  if (isSqliteBusy(err) || isDatabaseFull(err)) return true;
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

/**
 * The first line of a database error, short enough for a log field or a dead letter. Some driver
 * errors carry no message of their own (node-pg's connection failure is an AggregateError with
 * message "" whose errors say ECONNREFUSED): the first non-empty message (else code) along the
 * causes and aggregated errors is used, bounded.
 */
export function databaseErrorLine(err: unknown, max = 200): string {
  const queue: unknown[] = [err];
  const seen: unknown[] = [];
  let code: string | null = null;
  while (queue.length > 0 && seen.length < 12) {
    const e = queue.shift();
    if (e === null || e === undefined || seen.includes(e)) continue;
    seen.push(e);
    if (typeof e !== 'object') {
      const text = String(e).trim();
      if (text) return text.split('\n')[0].slice(0, max);
      continue;
    }
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string' && message.trim()) return message.trim().split('\n')[0].slice(0, max);
    const c = (e as { code?: unknown }).code;
    if (code === null && typeof c === 'string' && c) code = c;
    queue.push((e as { cause?: unknown }).cause);
    if (e instanceof AggregateError) queue.push(...e.errors);
  }
  return (code ?? (err instanceof Error ? err.name : String(err))).slice(0, max);
}
