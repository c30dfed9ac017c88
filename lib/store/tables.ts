// The names of the stored model's tables: raw for Sql.insertMany, quoted for SQL text. Only lib/store
// writes SQL (a lint rule holds the rest of the app to it), so only lib/store names tables.
export const TABLE = {
  server: 'Server',
  serverSecret: 'ServerSecret',
  operatorToken: 'OperatorToken',
  event: 'Event',
  /** PostgreSQL only: the (server, eventId) identity its partitioned "Event" cannot keep unique (lib/store/ingest-statements.ts). */
  eventKey: 'EventKey',
  session: 'Session',
  rollup: 'Rollup',
  rollupQuarter: 'RollupQuarter',
  latencyHistogram: 'LatencyHistogram',
  latencyHistogramQuarter: 'LatencyHistogramQuarter',
  deadLetter: 'DeadLetter',
  reporterStatus: 'ReporterStatus',
  probeTarget: 'ProbeTarget',
  probeRun: 'ProbeRun',
  syntheticToken: 'SyntheticToken',
  alertRule: 'AlertRule',
  alertContactPoint: 'AlertContactPoint',
  alertRuleContact: 'AlertRuleContact',
  alertState: 'AlertState',
  alertTransition: 'AlertTransition',
  alertDelivery: 'AlertDelivery',
  ingestRejection: 'IngestRejection',
  incident: 'Incident',
  incidentSession: 'IncidentSession',
  incidentActivity: 'IncidentActivity',
  incidentCursor: 'IncidentCursor',
  silence: 'Silence',
  serverVersion: 'ServerVersion',
  annotation: 'Annotation',
  auditEntry: 'AuditEntry',
} as const;

/** Double-quoted identifiers: the portable form on SQLite and PostgreSQL (PostgreSQL folds unquoted names). */
export const TABLE_SQL = {
  server: `"${TABLE.server}"`,
  serverSecret: `"${TABLE.serverSecret}"`,
  operatorToken: `"${TABLE.operatorToken}"`,
  event: `"${TABLE.event}"`,
  eventKey: `"${TABLE.eventKey}"`,
  session: `"${TABLE.session}"`,
  rollup: `"${TABLE.rollup}"`,
  rollupQuarter: `"${TABLE.rollupQuarter}"`,
  latencyHistogram: `"${TABLE.latencyHistogram}"`,
  latencyHistogramQuarter: `"${TABLE.latencyHistogramQuarter}"`,
  deadLetter: `"${TABLE.deadLetter}"`,
  reporterStatus: `"${TABLE.reporterStatus}"`,
  probeTarget: `"${TABLE.probeTarget}"`,
  probeRun: `"${TABLE.probeRun}"`,
  syntheticToken: `"${TABLE.syntheticToken}"`,
  alertRule: `"${TABLE.alertRule}"`,
  alertContactPoint: `"${TABLE.alertContactPoint}"`,
  alertRuleContact: `"${TABLE.alertRuleContact}"`,
  alertState: `"${TABLE.alertState}"`,
  alertTransition: `"${TABLE.alertTransition}"`,
  alertDelivery: `"${TABLE.alertDelivery}"`,
  ingestRejection: `"${TABLE.ingestRejection}"`,
  incident: `"${TABLE.incident}"`,
  incidentSession: `"${TABLE.incidentSession}"`,
  incidentActivity: `"${TABLE.incidentActivity}"`,
  incidentCursor: `"${TABLE.incidentCursor}"`,
  silence: `"${TABLE.silence}"`,
  serverVersion: `"${TABLE.serverVersion}"`,
  annotation: `"${TABLE.annotation}"`,
  auditEntry: `"${TABLE.auditEntry}"`,
} as const;

/** Rows per statement for IN (...) lists: well under SQLite's and PostgreSQL's bound-parameter limits. */
export const CHUNK = 400;

export function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** `?,?,…` for an IN list of n values. */
export const placeholders = (n: number): string => Array.from({ length: n }, () => '?').join(',');

/** `COALESCE(SUM(col), 0) AS col`, as BIGINT on both databases. */
export const sumColumn = (col: string): string => `COALESCE(CAST(SUM("${col}") AS BIGINT), 0) AS "${col}"`;
