// GET /api/v1/admin/dead-letters and /api/v1/admin/dead-letters/{id}: what senders posted that
// Doorwatch could not accept (bodies that were not a batch, events that failed the contract).
import { z } from 'zod';
import { ZCount, ZCursorParam, ZIsoMs, zInstantParam, zLimitParam } from './common';
import { zRepeatable, zText } from './route-contract';

/** Characters of the payload a list row carries; the detail route has all of it. */
export const DEAD_LETTER_PREVIEW_CHARS = 4096;
export const DEAD_LETTER_DEFAULT_LIMIT = 50;
export const DEAD_LETTER_MAX_LIMIT = 500;

export const ZDeadLetter = z.object({
  id: z.string(),
  /** The server named in the URL; null when it is not a registered name. */
  server: z.string().nullable(),
  receivedAt: ZIsoMs,
  /** Why it was refused: invalid_type, invalid_field, missing_field (one event), invalid_body (the whole request). */
  code: z.string(),
  message: z.string(),
  /** Position of the event in its batch; null when the whole body was refused. */
  eventIndex: z.int().nullable(),
  eventId: z.string().nullable(),
  /** The payload as received (the event as JSON, or the raw body), cut at DEAD_LETTER_PREVIEW_CHARS in lists. */
  payload: z.string(),
  payloadChars: ZCount,
  payloadTruncated: z.boolean(),
});
export type TDeadLetter = z.infer<typeof ZDeadLetter>;

export const ZDeadLetterCodeCount = z.object({ code: z.string(), count: ZCount });

export const ZDeadLetterListResponse = z.object({
  deadLetters: z.array(ZDeadLetter),
  /** Pass as cursor= for the next (older) page; null on the last page. */
  nextCursor: z.string().nullable(),
  /** Counts per code over the server and time filters (not the code filter, so every code stays offered), most frequent first. */
  byCode: z.array(ZDeadLetterCodeCount),
  /** Dead letters matching every filter, the code filter included (all pages): exact, the byCode counts of the selected codes summed. */
  total: ZCount,
  /** Dead letters in the server and time filters whatever their code: every byCode count summed. */
  totalInRange: ZCount,
});
export type TDeadLetterListResponse = z.infer<typeof ZDeadLetterListResponse>;

export const ZDeadLetterResponse = z.object({ deadLetter: ZDeadLetter });

/** GET /api/v1/admin/dead-letters parameters. */
export const ZDeadLetterQuery = z.object({
  server: zText(128).optional().meta({ description: 'One server' }),
  code: zRepeatable(z.string().regex(/^[a-z_]{1,64}$/, 'is not an error code (a-z and _)')).meta({
    description: 'Repeatable or comma-separated: invalid_type, invalid_field, missing_field, invalid_body',
  }),
  from: zInstantParam('Received at or after: RFC 3339, epoch ms, or relative (now-1h). No default (all kept).'),
  to: zInstantParam('Received before, same forms.'),
  limit: zLimitParam(DEAD_LETTER_DEFAULT_LIMIT, DEAD_LETTER_MAX_LIMIT),
  cursor: ZCursorParam,
});
export type TDeadLetterQuery = z.output<typeof ZDeadLetterQuery>;
