// Which ends of the phone's section row hide sections (components/shell/nav-edges.ts): the fade follows them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hiddenEdges } from '@/components/shell/nav-edges';

test('a row that fits hides nothing; a scrolled row hides what lies past each end', () => {
  assert.equal(hiddenEdges(0, 300, 300), 'none');
  assert.equal(hiddenEdges(0, 300, 520), 'end');
  assert.equal(hiddenEdges(220, 300, 520), 'start');
  assert.equal(hiddenEdges(100, 300, 520), 'both');
  // Fractional positions (a zoomed page) within a pixel of an end count as at it.
  assert.equal(hiddenEdges(0.6, 300, 520), 'end');
  assert.equal(hiddenEdges(219.4, 300, 520), 'start');
});
