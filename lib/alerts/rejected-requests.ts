// The "rejected_requests" measure's reader, until branch `metrics` lands `countRejections` in
// lib/store/ingest-rejections.ts (same signature). At that merge, measures.ts imports
// countRejections from there instead of from here, and this file is deleted. Until then there is
// nothing counted to read: the measure is "no data" (NaN), which never fires a rule.
import type { SqlExecutor } from '@/lib/db/sql';
import type { MeasureScope } from './measure-scope';

export async function countRejections(_sql: SqlExecutor, _scope: MeasureScope): Promise<number> {
  return Number.NaN;
}
