// Refused ingest requests as operators see them (Servers page, /api/v1/servers, /api/v1/stats, /metrics).
import { z } from 'zod';
import { ZCount, ZIsoMs } from './common';

/**
 * Why an ingest request was refused. The sender always gets one generic 401 for the first four;
 * only operators see which it was.
 */
export const REJECTION_REASONS = [
  'unknown_server',
  'missing_headers',
  'signature_mismatch',
  'timestamp_out_of_tolerance',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limited',
  'database_unavailable',
  'ingest_unavailable',
] as const;
export const ZRejectionReason = z.enum(REJECTION_REASONS);
export type TRejectionReason = z.infer<typeof ZRejectionReason>;

/** The HTTP status the sender got for each reason. */
export const REJECTION_STATUS: Record<TRejectionReason, number> = {
  unknown_server: 401,
  missing_headers: 401,
  signature_mismatch: 401,
  timestamp_out_of_tolerance: 401,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  database_unavailable: 503,
  ingest_unavailable: 503,
};

export const ZLastRejection = z.object({
  reason: ZRejectionReason,
  at: ZIsoMs,
  /** Sender clock minus Doorwatch clock (ms) for timestamp_out_of_tolerance; positive = sender ahead. */
  skewMs: z.number().nullable(),
});

export const ZRejectionSummary = z.object({
  /** Refused requests in range. */
  count: ZCount,
  byReason: z.partialRecord(ZRejectionReason, ZCount),
  last: ZLastRejection.nullable(),
});
export type TRejectionSummary = z.infer<typeof ZRejectionSummary>;

/** Requests naming servers Doorwatch does not know share one bucket; it keeps the last names seen. */
export const ZUnknownServerRejections = ZRejectionSummary.extend({
  recentNames: z.array(z.string()),
});
