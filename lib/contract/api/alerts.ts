// Alert rules, their states and history, contact points and notification deliveries
// (GET/POST/PATCH/DELETE under /api/v1/alerts). One schema per contract: routes, OpenAPI and the UI.
import { z } from 'zod';
import { SERVER_NAME } from '@/lib/contract/server-name';
import { ZCount, ZIsoMs, zLimitParam, zListTotal } from './common';
import { zRepeatable, zText } from './route-contract';

/** What a rule measures (lib/alerts/measures.ts computes each one over the rule's window). */
export const ALERT_MEASURES = [
  'deadlocks_ongoing',
  'naive_resumes',
  'dual_negotiations',
  'burned_token_reuses',
  'refusal_latency_p95_ms',
  'renegotiation_rate',
  'rejected_requests',
  'server_silence_seconds',
  'probes_failing',
] as const;
export const ZAlertMeasure = z.enum(ALERT_MEASURES);
export type TAlertMeasure = z.infer<typeof ZAlertMeasure>;

export const MEASURE_LABELS: Record<TAlertMeasure, string> = {
  deadlocks_ongoing: 'ongoing deadlocks',
  naive_resumes: 'naive resumes',
  dual_negotiations: 'dual negotiations',
  burned_token_reuses: 'burned-token reuses',
  refusal_latency_p95_ms: 'refusal latency p95 (ms)',
  renegotiation_rate: 'renegotiation rate (per drop)',
  rejected_requests: 'rejected ingest requests',
  server_silence_seconds: 'seconds since a server’s last event',
  probes_failing: 'servers whose latest door probe failed',
};

/** Measures read at the evaluation moment: the rule's window does not change them. */
export const INSTANT_MEASURES: ReadonlySet<TAlertMeasure> = new Set(['deadlocks_ongoing', 'server_silence_seconds']);

export const ALERT_COMPARISONS = ['gt', 'gte', 'lt', 'lte'] as const;
export const ZAlertComparison = z.enum(ALERT_COMPARISONS);
export type TAlertComparison = z.infer<typeof ZAlertComparison>;
export const COMPARISON_SYMBOLS: Record<TAlertComparison, string> = { gt: '>', gte: '≥', lt: '<', lte: '≤' };

export const ZAlertStateName = z.enum(['inactive', 'pending', 'firing']);
export type TAlertStateName = z.infer<typeof ZAlertStateName>;
/** pending: the condition started to hold; firing: it held for the rule's `for`; resolved: it stopped after firing; cleared: it stopped before firing. */
export const ZAlertTransitionKind = z.enum(['pending', 'firing', 'resolved', 'cleared']);
export type TAlertTransitionKind = z.infer<typeof ZAlertTransitionKind>;

const MAX_WINDOW_SECONDS = 7 * 24 * 3600;
const ZServerScope = z.string().regex(SERVER_NAME, 'must be a server name (1-64 characters of a-z, 0-9 and "-")').nullable();
const ZId = zText(128).min(1);

const ruleFields = {
  name: zText(120).min(1, 'must not be empty'),
  measure: ZAlertMeasure,
  comparison: ZAlertComparison,
  threshold: z.number().finite(),
  windowSeconds: z.int().min(60).max(MAX_WINDOW_SECONDS).meta({
    description:
      'the measure is computed over the last windowSeconds (60 s – 7 d); deadlocks_ongoing and server_silence_seconds are read at the evaluation moment and do not use it',
  }),
  forSeconds: z
    .int()
    .min(0)
    .max(MAX_WINDOW_SECONDS)
    .meta({ description: 'how long the condition must hold before the rule fires (0 = at once)' }),
  server: ZServerScope.meta({ description: 'one server, or null for all' }),
  enabled: z.boolean(),
  contactPointIds: z.array(ZId).max(20),
};

export const ZAlertRuleCreate = z.object({
  ...ruleFields,
  server: ruleFields.server.default(null),
  enabled: ruleFields.enabled.default(true),
  contactPointIds: ruleFields.contactPointIds.default([]),
});
export type TAlertRuleCreate = z.output<typeof ZAlertRuleCreate>;

export const ZAlertRulePatch = z.object(ruleFields).partial();
export type TAlertRulePatch = z.output<typeof ZAlertRulePatch>;

export const ZAlertRuleState = z.object({
  state: ZAlertStateName,
  since: ZIsoMs.meta({ description: 'when the rule entered this state' }),
  activeSince: ZIsoMs.nullable().meta({ description: 'since when the condition has held (pending or firing)' }),
  value: z.number().nullable().meta({ description: 'the last measured value (null: no data)' }),
  evaluatedAt: ZIsoMs,
});

/** One server's state of a rule (a rule is evaluated per server). */
const ZAlertServerState = ZAlertRuleState.extend({
  server: z.string().meta({ description: 'the server this state is about ("" for a state from before per-server evaluation)' }),
});

export const ZAlertRule = z.object({
  id: z.string(),
  ...ruleFields,
  createdAt: ZIsoMs,
  updatedAt: ZIsoMs,
  /** null until the rule's first evaluation; else the most urgent of its servers' states (firing, pending, inactive). */
  status: ZAlertRuleState.nullable(),
  /** Each server's own state (a rule without a server is evaluated for every server). */
  servers: z.array(ZAlertServerState),
  firingServers: z.array(z.string()).meta({ description: 'the servers the rule is firing for now' }),
  /** Link to the sessions of the rule's window and server (relative to this dashboard). */
  sessionsPath: z.string(),
});
export type TAlertRule = z.infer<typeof ZAlertRule>;

export const ZAlertRuleResponse = z.object({ rule: ZAlertRule });
export const ZAlertRuleListResponse = z.object({
  rules: z.array(ZAlertRule),
  firing: ZCount.meta({ description: 'how many rules are firing now (for one server or more)' }),
  /** Notifications that finally failed in the last 24 hours (visible so nobody trusts a silent pager). */
  failedDeliveries: ZCount,
});
export type TAlertRuleListResponse = z.infer<typeof ZAlertRuleListResponse>;

/**
 * pending → delivered | failed; superseded: a newer change of the same alert was queued before this
 * was sent; held: over DOORWATCH_ALERT_MAX_PER_MINUTE, not sent; summarized: held, then counted in a
 * summary notification; suppressed: not sent, its incident was acknowledged or a silence matched
 * (lastError says which).
 */
const DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'superseded', 'held', 'summarized', 'suppressed'] as const;
export const ZDeliveryStatus = z.enum(DELIVERY_STATUSES);

export const ZDeliverySummary = z.object({
  id: z.string().meta({ description: 'the webhook-id, the same on every retry' }),
  contactPointId: z.string(),
  contactPointName: z.string().nullable(),
  status: ZDeliveryStatus,
  sequence: ZCount.meta({ description: "the transition's sequence within its alert (0 for a summary)" }),
  attempts: ZCount,
  nextAttemptAt: ZIsoMs.nullable(),
  lastAttemptAt: ZIsoMs.nullable(),
  lastStatus: z.int().nullable(),
  lastError: z.string().nullable(),
  deliveredAt: ZIsoMs.nullable(),
  transitionId: z.string(),
  createdAt: ZIsoMs,
});
export type TDeliverySummary = z.infer<typeof ZDeliverySummary>;

export const ZAlertTransition = z.object({
  id: z.string(),
  ruleId: z.string(),
  ruleName: z.string(),
  kind: ZAlertTransitionKind,
  at: ZIsoMs,
  value: z.number().nullable(),
  measure: ZAlertMeasure,
  comparison: ZAlertComparison,
  threshold: z.number(),
  windowSeconds: z.int(),
  server: z.string().nullable().meta({ description: "the rule's scope: one server, or null for all" }),
  alertServer: z.string().nullable().meta({ description: 'the server this change is about' }),
  sequence: ZCount.meta({ description: 'increases with every change of this rule and server' }),
  summary: z.string(),
  sessionsPath: z.string(),
  deliveries: z.array(ZDeliverySummary),
});
export type TAlertTransition = z.infer<typeof ZAlertTransition>;

export const ZAlertHistoryQuery = z.object({
  rule: zText(128).optional().meta({ description: 'One rule id' }),
  kind: zRepeatable(ZAlertTransitionKind).meta({
    description: 'Repeatable or comma-separated: only these changes (pending, firing, resolved, cleared)',
  }),
  limit: zLimitParam(100, 1000),
});
export const ZAlertHistoryResponse = z.object({
  /** Newest first, at most `limit`. */
  transitions: z.array(ZAlertTransition),
  ...zListTotal('transitions'),
});
export type TAlertHistoryResponse = z.infer<typeof ZAlertHistoryResponse>;

export const CONTACT_POINT_FORMATS = ['standard', 'slack'] as const;
export const ZContactPointFormat = z.enum(CONTACT_POINT_FORMATS);

export const ZContactPointCreate = z.object({
  name: zText(120).min(1, 'must not be empty'),
  url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2048),
  format: ZContactPointFormat.default('standard').meta({
    description: 'standard: a JSON alert body; slack: {"text": …} for Slack-compatible incoming webhooks',
  }),
});
export type TContactPointCreate = z.output<typeof ZContactPointCreate>;

export const ZContactPoint = z.object({
  id: z.string(),
  name: z.string(),
  /** The whole URL for admins; viewers see its origin only (webhook URLs often carry a secret). */
  url: z.string(),
  format: ZContactPointFormat,
  createdAt: ZIsoMs,
});
export type TContactPoint = z.infer<typeof ZContactPoint>;
export const ZContactPointListResponse = z.object({ contactPoints: z.array(ZContactPoint) });
/** The whsec_ secret deliveries are signed with is returned once, here, and never again. */
export const ZContactPointCreated = z.object({ contactPoint: ZContactPoint, secret: z.string() });

export const ZDeliveryQuery = z.object({
  status: ZDeliveryStatus.optional().meta({ description: 'Only deliveries in this state' }),
  limit: zLimitParam(100, 1000),
});
export const ZDeliveryListResponse = z.object({ deliveries: z.array(ZDeliverySummary) });

/** What a standard-format notification carries (the JSON body a contact point receives). */
export const ZAlertNotification = z.object({
  type: z.literal('alert.transition'),
  transitionId: z.string(),
  alertKey: z.string().meta({ description: '"ruleId/server": the alert this change belongs to' }),
  sequence: ZCount.meta({
    description: 'increases with every change of the alert: keep the highest seen per alertKey and ignore lower ones',
  }),
  kind: ZAlertTransitionKind,
  at: ZIsoMs,
  server: z.string().nullable().meta({ description: 'the server the alert is about' }),
  rule: z.object({
    id: z.string(),
    name: z.string(),
    measure: ZAlertMeasure,
    comparison: ZAlertComparison,
    threshold: z.number(),
    windowSeconds: z.int(),
    server: z.string().nullable(),
  }),
  value: z.number().nullable(),
  summary: z.string(),
  sessionsUrl: z.string(),
  incidentId: z.string().nullable().meta({
    description: 'the incident this change belongs to (stable across its notifications: deduplicate on it); null when none',
  }),
  incidentUrl: z.string().nullable(),
});
export type TAlertNotification = z.infer<typeof ZAlertNotification>;

/** Sent instead of what the rate bound (DOORWATCH_ALERT_MAX_PER_MINUTE) held back: how many, and each alert's newest held state. */
export const ZAlertHeldSummary = z.object({
  type: z.literal('alert.summary'),
  heldBack: ZCount.meta({ description: 'how many notifications to this contact point were held back' }),
  maxPerMinute: ZCount,
  alerts: z.array(
    z.object({
      alertKey: z.string(),
      sequence: ZCount,
      kind: ZAlertTransitionKind,
      at: ZIsoMs,
      ruleId: z.string(),
      ruleName: z.string(),
      server: z.string().nullable(),
    }),
  ),
  summary: z.string(),
  alertsUrl: z.string(),
});
export type TAlertHeldSummary = z.infer<typeof ZAlertHeldSummary>;
