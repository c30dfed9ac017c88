// GET /api/v1/sessions — a page of session summaries; /api/v1/sessions/export streams the whole filtered set.
import { z } from 'zod';
import { ZServerVersion } from '@/lib/contract/ingest-envelope';
import { DEADLOCK_STATUSES, SESSION_FLAGS, SESSION_STATES, ZSessionSummary } from '@/lib/contract/summary';
import { RESUMPTION_FLAGS, ZResumptionHealth } from '@/lib/contract/resumption';
import { LIST_TOTAL_CAP, ZCursorParam, ZIsoMs, zInstantParam, zLimitParam, zListTotal } from './common';
import { zRepeatable, zText } from './route-contract';

/**
 * One session as the API shows it: the SessionSummary fields, with `flags`,
 * `deadlock` and `deadlock.ongoing` decided with the READER's clock.
 */
export const ZSessionView = ZSessionSummary.extend({
  server: z.string(),
  firstEventAt: ZIsoMs,
  updatedAt: ZIsoMs.meta({
    description: "when Doorwatch last recomputed this summary (Doorwatch's steady clock: the host's wall clock without its steps)",
  }),
  /** How the server answered SSE resumes (lossy, idle, rejected, abandoned); see docs/contract.md. */
  resumption: ZResumptionHealth,
  synthetic: z.boolean().meta({ description: 'opened by a door probe (docs/probes.md); kept out of fleet statistics' }),
  version: z.string().nullable().meta({ description: 'the server version (build) that served it, as its reporter named it; null if none' }),
  instance: z.string().nullable().meta({ description: 'the server instance that served it, as its reporter named it; null if none' }),
});
export type TSessionView = z.infer<typeof ZSessionView>;

export const SESSION_SORTS = ['-lastEventAt', 'lastEventAt', '-firstEventAt', 'firstEventAt'] as const;
export type TSessionSort = (typeof SESSION_SORTS)[number];

export const SYNTHETIC_FILTERS = ['include', 'exclude', 'only'] as const;
export type TSyntheticFilter = (typeof SYNTHETIC_FILTERS)[number];

/** The count of matching sessions stops here, so a broad filter on a huge table stays one cheap bounded scan. */
export const SESSION_TOTAL_CAP = LIST_TOTAL_CAP;

export const ZSessionListResponse = z.object({
  sessions: z.array(ZSessionView),
  /** Opaque; pass as `cursor=` for the next page. Null on the last page. */
  nextCursor: z.string().nullable(),
  limit: z.int().positive(),
  sort: z.enum(SESSION_SORTS),
  now: ZIsoMs,
  /** DOORWATCH_DEADLOCK_MAX_MS the answer was read with (0: none): a row's ticking deadlock stops at it. */
  deadlockMaxMs: z.int().min(0),
  nextChangeAt: ZIsoMs.nullable().meta({
    description:
      "when the reader's clock alone next changes a row of this filter (a naive resume becoming a deadlock, or an ongoing one reaching deadlockMaxMs); no event announces it, so ask again then. Null if none will",
  }),
  ...zListTotal('sessions'),
});
export type TSessionListResponse = z.infer<typeof ZSessionListResponse>;

/** Columns of the CSV export, in order (flags are space-separated, the deadlock is flattened). */
export const SESSION_CSV_COLUMNS = [
  'server',
  'token',
  'state',
  'flags',
  'boundaryOutcome',
  'openedAt',
  'firstEventAt',
  'lastEventAt',
  'eventCount',
  'refusalLatencyMs',
  'deadlockStartedAt',
  'deadlockEndedAt',
  'deadlockDurationMs',
  'deadlockOngoing',
  'previousToken',
  'successorToken',
  'successorServer',
  'successorOpenedAt',
  'renegotiationLatencyMs',
  'boundaryAt',
  'answeredAt',
  'refusedAt',
  'naiveResumeAt',
  'dualNegotiationAt',
  'dualNegotiationCount',
  'burnedTokenReuseAt',
  'dropCount',
  'deadlockCandidateSince',
  'updatedAt',
  'version',
  'instance',
] as const;

/** The JSON export is a plain array of session views. */
export const ZSessionExportJson = z.array(ZSessionView);

export const EXPORT_FORMATS = ['csv', 'json'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export const SESSION_DEFAULT_LIMIT = 50;
export const SESSION_MAX_LIMIT = 500;

const SESSIONS_ACTIVE = ' Sessions active in the range; no default (all time).';

/** The filters the session list and the export share. */
export const ZSessionFilterQuery = z.object({
  flag: zRepeatable(z.enum([...SESSION_FLAGS, ...RESUMPTION_FLAGS])).meta({
    description: `Repeatable (AND): ${[...SESSION_FLAGS, ...RESUMPTION_FLAGS].join(', ')}`,
  }),
  server: zRepeatable(zText(128)).meta({ description: 'Server name (repeatable: any of)' }),
  state: zRepeatable(z.enum(SESSION_STATES)).meta({ description: `Repeatable (any of): ${SESSION_STATES.join(', ')}` }),
  deadlock: zRepeatable(z.enum(DEADLOCK_STATUSES)).meta({
    description:
      'The deadlock as read now, repeatable (any of): ongoing (its client waits now: the overview\'s "stuck now"), ended (its end was reported), end_unreported (no end reported, older than DOORWATCH_DEADLOCK_MAX_MS)',
  }),
  from: zInstantParam(`Start: RFC 3339, epoch ms, or relative as in Grafana (now-15m, now-1d/d).${SESSIONS_ACTIVE}`),
  to: zInstantParam(`End (exclusive), same forms.${SESSIONS_ACTIVE}`),
  token: zText(256).optional().meta({ description: 'Whole token or prefix' }),
  sort: z.enum(SESSION_SORTS).default('-lastEventAt').meta({ description: 'Order' }),
  version: zRepeatable(ZServerVersion).meta({ description: 'Server version that served the session (repeatable: any of)' }),
  synthetic: z.enum(SYNTHETIC_FILTERS).default('include').meta({ description: 'Door-probe sessions: include (default), exclude, or only' }),
});
export type TSessionFilterQuery = z.output<typeof ZSessionFilterQuery>;

/** GET /api/v1/sessions parameters. */
export const ZSessionListQuery = ZSessionFilterQuery.extend({
  limit: zLimitParam(SESSION_DEFAULT_LIMIT, SESSION_MAX_LIMIT),
  cursor: ZCursorParam,
  format: z.enum(EXPORT_FORMATS).optional().meta({ description: 'csv or json: stream the WHOLE filtered set instead of a page' }),
});

/** GET /api/v1/sessions/export parameters. */
export const ZSessionExportQuery = ZSessionFilterQuery.extend({
  format: z.enum(EXPORT_FORMATS).default('csv').meta({ description: 'csv (default) or json' }),
});
