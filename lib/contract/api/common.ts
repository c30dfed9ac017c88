// Shared pieces of the query API response schemas (one file per response lives next to this).
import { z } from 'zod';

/** Every time the API returns is UTC ISO 8601 with millisecond precision. */
export const ZIsoMs = z.iso.datetime({ precision: 3 });
export const ZCount = z.int().min(0);

/** Counting the rows that match a list's filter stops here, so a broad filter on a huge table stays one bounded scan. */
export const LIST_TOTAL_CAP = 10_000;

/**
 * `total` and `totalCapped` of a list response: how many `noun` match the filter over all pages
 * (not the cursor), counted up to LIST_TOTAL_CAP; a UI shows a capped total as "10,000+".
 */
export const zListTotal = (noun: string) => ({
  total: ZCount.meta({ description: `${noun} matching the filter (all pages), counted up to ${LIST_TOTAL_CAP}` }),
  totalCapped: z.boolean().meta({
    description: `true when more than ${LIST_TOTAL_CAP} ${noun} match: total is then ${LIST_TOTAL_CAP} (read it as "${LIST_TOTAL_CAP}+")`,
  }),
});

/** The error body every API route answers with on failure. */
export const ZApiError = z.object({
  error: z.object({
    code: z.string().meta({ description: 'machine-readable, e.g. invalid_time_range, unauthorized, session_not_found' }),
    message: z.string(),
    details: z.unknown().optional(),
  }),
});

/** The time range a response covers, after parsing relative forms and aligning to whole minutes. */
export const ZResolvedRange = z.object({
  from: ZIsoMs.meta({ description: 'inclusive, aligned down to the minute' }),
  to: ZIsoMs.meta({ description: 'exclusive, aligned up to the minute' }),
  /** The raw parameters as given (e.g. "now-15m"), so a UI can keep relative ranges relative. */
  fromInput: z.string(),
  toInput: z.string(),
});

/** A `from`/`to` parameter as written (RFC 3339, epoch ms or now-15m); lib/queries resolves it. */
export const zInstantParam = (description: string) => z.string().max(64, 'must be at most 64 characters').optional().meta({ description });

/** `limit`: a page size. */
export const zLimitParam = (fallback: number, max: number) =>
  z.coerce
    .number()
    .int()
    .min(1)
    .max(max)
    .default(fallback)
    .meta({ description: `Page size 1–${max} (default ${fallback})` });

/** `cursor`: opaque, as the previous page's nextCursor (decoded and checked by lib/queries). */
export const ZCursorParam = z
  .string()
  .max(2048, 'is not one this API issued')
  .optional()
  .meta({ description: 'nextCursor of the previous page' });
