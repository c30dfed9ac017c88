// What an audit entry changed, field by field: the entity's before and after (as the API answers
// them, secrets already redacted) flattened to dotted paths and compared. A create lists every field
// as added, a delete every field as removed, an update only the fields whose value differs. Pure.

export type DiffChange = 'added' | 'removed' | 'changed';

export interface DiffLine {
  /** Dotted path of the field (`keyring.1.expiresAt`); '' when the entity is a single value. */
  path: string;
  change: DiffChange;
  before: unknown;
  after: unknown;
}

export interface AuditDiff {
  lines: DiffLine[];
  /** Fields present on both sides with the same value (an update's untouched fields). */
  unchanged: number;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A list of plain values reads best whole (`["cp_1","cp_2"]`); a list of records is walked item by item. */
const isLeaf = (v: unknown): boolean =>
  Array.isArray(v) ? v.every((x) => !isRecord(x) && !Array.isArray(x)) : !isRecord(v) || Object.keys(v).length === 0;

function flatten(value: unknown, path: string, out: Map<string, unknown>): void {
  if (value === null || value === undefined) {
    if (path) out.set(path, null);
    return;
  }
  if (isLeaf(value)) {
    out.set(path, value);
    return;
  }
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value as Record<string, unknown>);
  for (const [k, v] of entries) flatten(v, path ? `${path}.${k}` : k, out);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function auditDiff(before: unknown, after: unknown): AuditDiff {
  const b = new Map<string, unknown>();
  const a = new Map<string, unknown>();
  flatten(before, '', b);
  flatten(after, '', a);
  // The after side's field order (what the entity is now), then the fields it no longer has.
  const paths = [...a.keys(), ...[...b.keys()].filter((k) => !a.has(k))];
  const lines: DiffLine[] = [];
  let unchanged = 0;
  for (const path of paths) {
    const inBefore = b.has(path);
    const inAfter = a.has(path);
    if (inBefore && inAfter && same(b.get(path), a.get(path))) unchanged++;
    else lines.push({ path, change: !inBefore ? 'added' : !inAfter ? 'removed' : 'changed', before: b.get(path), after: a.get(path) });
  }
  return { lines, unchanged };
}

/** The entity's own name, when it has one (operators, rules, contact points, servers): shown beside its id. */
export function entityName(before: unknown, after: unknown): string | null {
  for (const side of [after, before]) if (isRecord(side) && typeof side.name === 'string' && side.name) return side.name;
  return null;
}
