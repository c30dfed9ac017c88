// Transitional, for the merge only: the reporter is the workspace package @doorwatch/reporter
// (packages/reporter). lib/sim/server.ts, being split on another branch, still imports its
// `Reporter` type from here; delete this file once that code imports '@doorwatch/reporter'.
export type { Reporter } from '@doorwatch/reporter';
