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

/** A build name: what a release or deploy calls it (v2.3.1, 2026.12.04-1, 1.4.0+g3f2a9c1). */
export const VERSION_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._+:/-]{0,63}$/;
export const ZServerVersion = z
  .string()
  .regex(VERSION_PATTERN, 'must be 1-64 characters of A-Z, a-z, 0-9 and . _ + : / -, starting with a letter or digit')
  .meta({ description: "The server's version (build) that served this batch's sessions", example: 'v2.3.1' });
export const ZServerInstance = z
  .string()
  .regex(/^[A-Za-z0-9._:-]{1,128}$/, 'must be 1-128 characters of A-Z, a-z, 0-9 and . _ : -')
  .meta({ description: 'Which process or replica of the server sent this batch', example: 'eu-west-1a' });

/** The envelope fields whose bad values answer their own 400 code (not the generic invalid_body). */
export const ENVELOPE_FIELD_CODES = { version: 'invalid_version', instance: 'invalid_instance' } as const;

export const ZIngestEnvelope = z.object({
  events: z
    .array(z.unknown())
    .min(1, 'events must hold at least one event')
    .max(MAX_EVENTS_PER_REQUEST, `at most ${MAX_EVENTS_PER_REQUEST} events per request`),
  reporter: ZReporterStatus.optional(),
  /** Optional (senders from before versions stay valid): the first batch naming one for a token wins. */
  version: ZServerVersion.optional(),
  instance: ZServerInstance.optional(),
});
export type IngestEnvelope = z.infer<typeof ZIngestEnvelope>;
/** What a batch says about the server that sent it. */
export type BatchOrigin = Pick<IngestEnvelope, 'version' | 'instance'>;
