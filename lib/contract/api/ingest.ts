// POST /api/v1/ingest/{server} as the API document describes it: the signed batch and the answer.
import { z } from 'zod';
import { ZEvent } from '@/lib/contract/event';
import { MAX_EVENTS_PER_REQUEST, ZReporterStatus, ZServerInstance, ZServerVersion } from '@/lib/contract/ingest-envelope';
import { ZCount } from './common';

/**
 * The batch as a sender should write it. The route accepts `events` as any values and judges each
 * one apart (lib/ingest), so one bad event is a 207 for that event, not a refused batch.
 */
export const ZIngestRequest = z.object({
  events: z.array(ZEvent).min(1).max(MAX_EVENTS_PER_REQUEST),
  reporter: ZReporterStatus.optional(),
  version: ZServerVersion.optional(),
  instance: ZServerInstance.optional(),
});

export const ZRejectedEvent = z.object({
  index: ZCount.meta({ description: 'position in events[]' }),
  id: z.string().nullable(),
  code: z.string().meta({ description: 'invalid_type, invalid_field, missing_field …' }),
  message: z.string(),
});

/** 200 when every event was stored (or already was), 207 when some were rejected. */
export const ZIngestResponse = z.object({
  accepted: ZCount,
  duplicates: ZCount,
  rejected: z.array(ZRejectedEvent),
});

export const INGEST_HEADERS = [
  { name: 'webhook-id', required: true, description: 'Standard Webhooks message id (unique per request; retries reuse it)' },
  {
    name: 'webhook-timestamp',
    required: true,
    description: 'Standard Webhooks timestamp, Unix seconds; must be within 5 minutes of the server clock',
  },
  {
    name: 'webhook-signature',
    required: true,
    description:
      'Standard Webhooks signature: space-separated v1,<base64 HMAC-SHA256 of "id.timestamp.body"> with the server\'s whsec_ secret',
  },
] as const;
