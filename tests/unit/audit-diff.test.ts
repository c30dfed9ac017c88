// The Audit page's field-by-field change (lib/ui/audit-diff.ts): a create lists every field as added,
// a delete every field as removed, an update only what differs; lists of records are walked by
// index, lists of plain values read whole; the entity's name is found on either side.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { auditDiff, entityName } from '@/lib/ui/audit-diff';

const rule = { id: 'rule_1', name: 'naive', threshold: 0, contactPointIds: ['cp_1'], labels: {} };

test('a create: every field added, in the entity order', () => {
  const d = auditDiff(null, rule);
  assert.deepEqual(
    d.lines.map((l) => [l.path, l.change, l.after]),
    [
      ['id', 'added', 'rule_1'],
      ['name', 'added', 'naive'],
      ['threshold', 'added', 0],
      ['contactPointIds', 'added', ['cp_1']],
      ['labels', 'added', {}],
    ],
  );
  assert.equal(d.unchanged, 0);
});

test('a delete: every field removed, before kept', () => {
  const d = auditDiff(rule, null);
  assert.deepEqual(new Set(d.lines.map((l) => l.change)), new Set(['removed']));
  assert.deepEqual(d.lines.find((l) => l.path === 'name')?.before, 'naive');
});

test('an update: only the fields that differ, the rest counted', () => {
  const d = auditDiff(rule, { ...rule, threshold: 3, contactPointIds: ['cp_1', 'cp_2'] });
  assert.deepEqual(
    d.lines.map((l) => [l.path, l.change, l.before, l.after]),
    [
      ['threshold', 'changed', 0, 3],
      ['contactPointIds', 'changed', ['cp_1'], ['cp_1', 'cp_2']],
    ],
  );
  assert.equal(d.unchanged, 3);
});

test('lists of records by index: a rotation ends the old secret and adds one; null fields are values', () => {
  const old = { id: 's1', createdAt: 'a', expiresAt: null };
  const d = auditDiff(
    { keyring: [old] },
    {
      keyring: [
        { ...old, expiresAt: 'b' },
        { id: 's2', createdAt: 'c', expiresAt: null },
      ],
    },
  );
  assert.deepEqual(
    d.lines.map((l) => [l.path, l.change]),
    [
      ['keyring.0.expiresAt', 'changed'],
      ['keyring.1.id', 'added'],
      ['keyring.1.createdAt', 'added'],
      ['keyring.1.expiresAt', 'added'],
    ],
  );
  assert.equal(d.unchanged, 2);
});

test('a single value and no change at all', () => {
  assert.deepEqual(auditDiff('a', 'b').lines, [{ path: '', change: 'changed', before: 'a', after: 'b' }]);
  assert.deepEqual(auditDiff(rule, { ...rule }), { lines: [], unchanged: 5 });
});

test('the entity name from after, else before; none without one', () => {
  assert.equal(entityName(null, rule), 'naive');
  assert.equal(entityName({ name: 'old' }, { name: 'new' }), 'new');
  assert.equal(entityName({ name: 'gone' }, null), 'gone');
  assert.equal(entityName({ id: 'x' }, 'text'), null);
});
