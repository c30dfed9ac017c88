// The audit log's API shapes (GET /api/v1/audit and its export): who changed what, with the entity
// before and after. before/after are stored redacted (lib/store/audit-redaction.ts): no secret is kept.
import { z } from 'zod';
import { ZCursorParam, ZIsoMs, zInstantParam, zLimitParam } from './common';
import { zText } from './route-contract';

/** How the actor signed in: a browser session, a bearer token, the CLI, or Doorwatch itself (config at start-up). */
export const AUDIT_ACTOR_KINDS = ['session', 'token', 'cli', 'system'] as const;
export type TAuditActorKind = (typeof AUDIT_ACTOR_KINDS)[number];

export const AUDIT_ENTITY_TYPES = [
  'server',
  'server_secret',
  'operator',
  'alert_rule',
  'contact_point',
  'probe_target',
  'silence',
  'incident',
  'annotation',
] as const;
export type TAuditEntityType = (typeof AUDIT_ENTITY_TYPES)[number];

export const AUDIT_ACTIONS = ['create', 'update', 'delete', 'rotate', 'revoke', 'expire', 'acknowledge', 'resolve', 'note'] as const;
export type TAuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_EXPORT_FORMATS = ['csv', 'ndjson'] as const;

export const ZAuditEntry = z.object({
  id: z.string(),
  at: ZIsoMs,
  actor: z.object({
    name: z.string(),
    kind: z.enum(AUDIT_ACTOR_KINDS),
    id: z.string().nullable().meta({ description: 'the operator id, when an operator acted' }),
  }),
  action: z.enum(AUDIT_ACTIONS),
  entityType: z.enum(AUDIT_ENTITY_TYPES),
  entityId: z.string(),
  before: z.unknown().meta({ description: 'the entity before the change (null for a create), secrets redacted' }),
  after: z.unknown().meta({ description: 'the entity after the change (null for a delete), secrets redacted' }),
  requestId: z.string().nullable().meta({ description: 'the x-request-id of the API request that made the change' }),
});
export type TAuditEntry = z.infer<typeof ZAuditEntry>;

export const AUDIT_DEFAULT_LIMIT = 50;
export const AUDIT_MAX_LIMIT = 500;

/** The filters the list and the export share. */
export const ZAuditFilterQuery = z.object({
  actor: zText(128).optional().meta({ description: 'Actor name or operator id (exact)' }),
  entityType: z
    .enum(AUDIT_ENTITY_TYPES)
    .optional()
    .meta({ description: `One of ${AUDIT_ENTITY_TYPES.join(', ')}` }),
  entityId: zText(256).optional().meta({ description: 'Entity id (exact): a server name, a rule id, …' }),
  action: z
    .enum(AUDIT_ACTIONS)
    .optional()
    .meta({ description: `One of ${AUDIT_ACTIONS.join(', ')}` }),
  from: zInstantParam('Start: RFC 3339, epoch ms, or relative (now-7d)'),
  to: zInstantParam('End (exclusive), same forms'),
});
export type TAuditFilterQuery = z.output<typeof ZAuditFilterQuery>;

export const ZAuditListQuery = ZAuditFilterQuery.extend({
  limit: zLimitParam(AUDIT_DEFAULT_LIMIT, AUDIT_MAX_LIMIT),
  cursor: ZCursorParam,
  format: z
    .enum(AUDIT_EXPORT_FORMATS)
    .optional()
    .meta({ description: 'csv or ndjson: stream the WHOLE filtered set (newest first) instead of a page' }),
});
export type TAuditListQuery = z.output<typeof ZAuditListQuery>;

export const ZAuditListResponse = z.object({
  entries: z.array(ZAuditEntry),
  /** Opaque; pass as `cursor=` for the next (older) page. Null on the last page. */
  nextCursor: z.string().nullable(),
  limit: z.int().positive(),
});
export type TAuditListResponse = z.infer<typeof ZAuditListResponse>;
