// What the request thread and an ingest thread say to each other (ingest-threads.ts,
// ingest-thread.ts). Errors cross as plain data and are rebuilt on the other side, so an
// ApiError keeps its status, code, headers and, for a 401, the reason operators see.
import type { TRejectionReason } from '@/lib/contract/api/rejections';
import { ApiError } from '@/lib/http/api-error';
import type { Change } from '@/lib/live/change';
import type { QueryObserver } from '@/lib/db/timed-sql';
import type { IngestResult } from './ingest-events';
import type { WebhookHeaders } from './verify-signature';
import { Unauthorized } from './unauthorized';

export interface ThreadSetup {
  /** The process's SQLite write lock (lib/db/thread-write-lock.ts). */
  sqliteLock: SharedArrayBuffer;
  /** PostgreSQL connections this thread may open. */
  pgPoolSize: number;
}

export type ThreadRequest =
  | { op: 'examine'; id: number; server: string; raw: Uint8Array; headers: WebhookHeaders; secrets: string[] }
  | { op: 'store'; id: number }
  | { op: 'release'; id: number };

export type QueryTiming = readonly [Parameters<QueryObserver>[0], number];

export interface Failure {
  status: number | null;
  code: string;
  message: string;
  headers: Record<string, string>;
  reason: TRejectionReason | null;
  skewMs: number | null;
}

export type JobReply =
  | { kind: 'examined'; id: number; eventCount: number }
  | { kind: 'stored'; id: number; result: IngestResult }
  | { kind: 'released'; id: number }
  | { kind: 'failed'; id: number; failure: Failure };

export type ThreadReply = (JobReply & { timings?: QueryTiming[] }) | { kind: 'change'; change: Change };

export function describeFailure(err: unknown): Failure {
  if (err instanceof ApiError) {
    const unauthorized = err instanceof Unauthorized;
    return {
      status: err.status,
      code: err.code,
      message: err.message,
      headers: err.headers,
      reason: unauthorized ? err.reason : null,
      skewMs: unauthorized ? err.skewMs : null,
    };
  }
  return {
    status: null,
    code: 'internal',
    message: err instanceof Error ? err.message : String(err),
    headers: {},
    reason: null,
    skewMs: null,
  };
}

/** The error the thread threw, as the request thread throws it: an unexpected one stays a plain Error (a 500). */
export function rebuildFailure(f: Failure): Error {
  if (f.reason !== null) return new Unauthorized(f.reason, f.skewMs);
  if (f.status !== null) return new ApiError(f.status, f.code, f.message, f.headers);
  return new Error(`ingest thread: ${f.message}`);
}
