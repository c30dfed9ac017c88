// /api/v1/annotations: notes on the time charts (a deploy, a config change), close to Grafana's
// annotations API (epoch-ms time and timeEnd, text, tags), plus the optional server they concern.
import { z } from 'zod';
import { MAX_TIMESTAMP_MS } from '@/lib/contract/timestamp';
import { SERVER_NAME } from '@/lib/contract/server-name';
import { ZIsoMs, zInstantParam, zLimitParam } from './common';
import { zRepeatable } from './route-contract';

export const ANNOTATION_TEXT_MAX = 1000;
export const ANNOTATION_TAGS_MAX = 10;
export const ANNOTATION_DEFAULT_LIMIT = 100;
export const ANNOTATION_MAX_LIMIT = 500;

/** A tag: letters, digits and . _ : / - (so it is safe in a URL and never needs quoting). */
export const ZAnnotationTag = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:/-]{0,63}$/, 'must be 1-64 characters of A-Z, a-z, 0-9 and . _ : / -, starting with a letter or digit');

const ZEpochMs = z.int().min(0).max(MAX_TIMESTAMP_MS);

export const ZAnnotationCreate = z
  .object({
    time: ZEpochMs.optional().meta({ description: 'epoch ms (default: now)' }),
    timeEnd: ZEpochMs.optional().meta({ description: 'epoch ms: the end of a region annotation; at or after time' }),
    text: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(ANNOTATION_TEXT_MAX, `must be at most ${ANNOTATION_TEXT_MAX} characters`)
      .refine((t) => !t.includes('\u0000'), 'must not contain NUL'),
    tags: z.array(ZAnnotationTag).max(ANNOTATION_TAGS_MAX, `at most ${ANNOTATION_TAGS_MAX} tags`).default([]),
    server: z.string().regex(SERVER_NAME, 'is not a server name (1-64 of a-z, 0-9 and -)').optional(),
  })
  .strict()
  .refine((a) => a.timeEnd === undefined || a.time === undefined || a.timeEnd >= a.time, {
    message: 'must be at or after time',
    path: ['timeEnd'],
  })
  .meta({ example: { text: 'deployed v2.3.1 to eu-west', tags: ['deploy', 'v2.3.1'], server: 'files-eu' } });
export type TAnnotationCreate = z.output<typeof ZAnnotationCreate>;

export const ZAnnotationView = z.object({
  id: z.string(),
  time: ZIsoMs,
  timeEnd: ZIsoMs.nullable(),
  text: z.string(),
  tags: z.array(z.string()),
  /** The server it concerns; null: every server. */
  server: z.string().nullable(),
  createdBy: z.string().meta({ description: 'the operator who posted it' }),
  createdAt: ZIsoMs,
});
export type TAnnotationView = z.infer<typeof ZAnnotationView>;

export const ZAnnotationListQuery = z.object({
  from: zInstantParam('Start: RFC 3339, epoch ms or relative (now-6h); default the last hour'),
  to: zInstantParam('End (exclusive), same forms'),
  server: z.string().regex(SERVER_NAME, 'is not a server name').optional().meta({
    description: "This server's annotations and those for every server",
  }),
  tags: zRepeatable(ZAnnotationTag).meta({ description: 'Repeatable: only annotations carrying every one of these tags' }),
  limit: zLimitParam(ANNOTATION_DEFAULT_LIMIT, ANNOTATION_MAX_LIMIT),
});

/** A version first reported in the window (a marker beside the annotations). */
export const ZVersionMarker = z.object({ server: z.string(), version: z.string(), firstSeenAt: ZIsoMs });

export const ZAnnotationListResponse = z.object({
  /** Annotations overlapping the window, oldest first. */
  annotations: z.array(ZAnnotationView),
  /** Versions whose first report falls in the window (the charts mark them too), oldest first. */
  versions: z.array(ZVersionMarker),
});
export type TAnnotationListResponse = z.infer<typeof ZAnnotationListResponse>;
