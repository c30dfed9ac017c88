import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { layoutLabels, type LabelItem } from '@/lib/ui/label-layout';

test('labels that would print over each other go to other rows, or are hidden, never overlapping', () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.record({
          x: fc.integer({ min: 0, max: 400 }),
          text: fc.constantFrom('resume.requested', 'resume.accepted', 'upgrade.accepted', 'upgrade.rejected', 'dropped', 'opened'),
          important: fc.boolean(),
        }),
        { maxLength: 40 },
      ),
      fc.integer({ min: 1, max: 3 }),
      (raw, rows) => {
        const items: LabelItem[] = raw.map((r) => ({ ...r, fontSize: 11 }));
        const placed = layoutLabels(items, { rows, gap: 4, minX: 0, maxX: 400 });
        for (const [i, a] of placed.entries()) {
          if (a.row < 0) continue;
          assert.ok(a.from >= 0 && a.to <= 400 + 1e-9, `label ${i} leaves the plot`);
          for (const [j, b] of placed.entries())
            if (j > i && b.row === a.row) assert.ok(a.to + 4 <= b.from || b.to + 4 <= a.from, `labels ${i} and ${j} overlap`);
        }
      },
    ),
  );
});

test('important labels win the places; spread-out labels all show on the first row', () => {
  const crowded: LabelItem[] = [
    { x: 100, text: 'dropped', fontSize: 11 },
    { x: 105, text: 'resume.requested', fontSize: 11, important: true },
    { x: 110, text: 'resume.accepted', fontSize: 11, important: true },
  ];
  const one = layoutLabels(crowded, { rows: 1, minX: 0, maxX: 1000 });
  assert.equal(one[0].row, -1);
  assert.equal(one[1].row, 0);
  assert.equal(one[2].row, -1);
  const two = layoutLabels(crowded, { rows: 2, minX: 0, maxX: 1000 });
  assert.deepEqual(
    two.map((p) => p.row),
    [-1, 0, 1],
  );
  const spread = layoutLabels(
    [0, 200, 400, 600].map((x) => ({ x, text: 'upgrade.accepted', fontSize: 11 })),
    { rows: 3, minX: 0, maxX: 700 },
  );
  assert.deepEqual(
    spread.map((p) => p.row),
    [0, 0, 0, 0],
  );
  assert.equal(spread[0].from, 0);
});
