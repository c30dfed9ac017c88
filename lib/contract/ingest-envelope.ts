// The body of POST /api/v1/ingest/{server}: a batch of events, and optionally what the sender's
// reporter lost on its side (so operators know when a server's timelines are incomplete).
import { z } from 'zod';

export const MAX_EVENTS_PER_REQUEST = 1000;

export const ZReporterStatus = z.object({
  /** Names one reporter process (the SDK uses host-pid-random); counts are per instance. */
  instance: z.string().regex(/^[A-Za-z0-9._:-]{1,128}$/, 'must be 1-128 characters of A-Z, a-z, 0-9 and . _ : -'),
  /** Events this instance discarded before sending (buffer full, or reported after close), since it started. */
  dropped: z.int().min(0),
  /** Events this instance gave up on after its retries ran out, since it started. */
  failed: z.int().min(0),
});
export type ReporterStatus = z.infer<typeof ZReporterStatus>;

export const ZIngestEnvelope = z.object({
  events: z
    .array(z.unknown())
    .min(1, 'events must hold at least one event')
    .max(MAX_EVENTS_PER_REQUEST, `at most ${MAX_EVENTS_PER_REQUEST} events per request`),
  reporter: ZReporterStatus.optional(),
});
