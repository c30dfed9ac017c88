// Event names on the session timeline: staggered, close ones gathered under "+N" chips
// (lib/ui/label-clusters.ts), and every text of the chart placed without overlap
// (lib/ui/timeline-labels.ts) for random timelines, widths, spacings and zooms.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { clusterLabels, type ClusterItem } from '@/lib/ui/label-clusters';
import { estimateWidth } from '@/lib/ui/label-layout';
import { buildAxis, doorWindow, type Spacing, type ZoomWindow } from '@/lib/ui/timeline-axis';
import { planTimelineLabels, textBoxes, type PlanEvent, type TextBox } from '@/lib/ui/timeline-labels';

const chipWidth = (n: number) => estimateWidth(`+${n}`, 10, true) + 12;

function assertClusterInvariants(items: ClusterItem[], rows: number, minX: number, maxX: number, gap: number, chipRows = rows) {
  const out = clusterLabels(items, { rows, chipRows, gap, minX, maxX, chipWidth });
  // Every item is accounted for exactly once: its own label, or one chip's member.
  const seen = new Map<number, string>();
  out.labels.forEach((b, i) => b && seen.set(i, 'label'));
  for (const c of out.clusters)
    for (const m of c.members) {
      assert.ok(!seen.has(m), `item ${m} is both ${seen.get(m)} and in a chip`);
      seen.set(m, 'chip');
    }
  assert.equal(seen.size, items.length, 'an item went missing');
  // No two boxes in a row closer than the gap; all inside the plot.
  const boxes = [
    ...out.labels.flatMap((b, i) => (b ? [{ ...b, what: `label ${i}`, rows }] : [])),
    ...out.clusters.map((c) => ({ ...c, what: `chip +${c.members.length}`, rows: chipRows })),
  ];
  for (const [k, a] of boxes.entries()) {
    assert.ok(a.row >= 0 && a.row < a.rows, `${a.what} in row ${a.row}`);
    assert.ok(a.from >= minX - 1e-9 && a.to <= maxX + 1e-9, `${a.what} leaves the plot`);
    for (const b of boxes.slice(k + 1))
      if (a.row === b.row) assert.ok(a.to + gap <= b.from + 1e-9 || b.to + gap <= a.from + 1e-9, `${a.what} and ${b.what} overlap`);
  }
  return out;
}

test('every event is labelled or in a chip, and no two labels or chips overlap', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 60, max: 1900 }),
      fc.array(
        fc.record({ x: fc.double({ min: 0, max: 1, noNaN: true }), width: fc.integer({ min: 10, max: 160 }), important: fc.boolean() }),
        {
          maxLength: 80,
        },
      ),
      fc.integer({ min: 1, max: 3 }),
      fc.integer({ min: 0, max: 1 }),
      (plotW, raw, rows, chipOnly) => {
        const items = raw.map((r) => ({ ...r, x: 4 + r.x * plotW }));
        assertClusterInvariants(items, rows, 4, 4 + plotW, 6, rows + chipOnly);
      },
    ),
    { numRuns: 400 },
  );
});

test('labels that fit all show, with no chip; a crowd becomes one chip holding its events', () => {
  const spread = assertClusterInvariants(
    [0, 200, 400, 600].map((x) => ({ x: x + 60, width: 100 })),
    3,
    0,
    800,
    6,
  );
  assert.ok(spread.labels.every((b) => b?.row === 0));
  assert.equal(spread.clusters.length, 0);

  // Ten labels of 100 px at one spot, three rows: three labels (the important one on the first
  // row), and the other seven under one "+7" slid beside them rather than pushing a name out.
  const crowd = Array.from({ length: 10 }, (_, i) => ({ x: 300 + i, width: 100, important: i === 5 }));
  const out = assertClusterInvariants(crowd, 3, 0, 800, 6);
  assert.equal(out.labels[5]?.row, 0, 'the important label takes the first row');
  assert.equal(out.labels.filter(Boolean).length, 3);
  assert.equal(out.clusters.length, 1);
  assert.equal(out.clusters[0].members.length, 7);
  assert.ok(Math.abs(out.clusters[0].from - 300) <= 80 + 60, 'the chip stays near its events');
  // With no room to slide into, the chip takes an ordinary label's place (never the important one's).
  const tight = assertClusterInvariants(crowd, 3, 200, 420, 6);
  assert.ok(tight.labels[5], 'the important label keeps its name');
  assert.equal(tight.clusters.length, 1);
  assert.equal(tight.clusters[0].members.length + tight.labels.filter(Boolean).length, 10);
  assert.deepEqual(
    out.clusters[0].members,
    [...out.clusters[0].members].sort((a, b) => crowd[a].x - crowd[b].x),
  );
});

// ---- the whole chart: random timelines at the page's widths --------------------------------

const TYPES = [
  'session.opened',
  'upgrade.accepted',
  'stream.dropped',
  'resume.requested',
  'resume.accepted',
  'resume.refused',
  'upgrade.rejected',
  'session.timeout',
];
const NOTES = ['boundary entry', 'naive resume', 'the door · #8 · SSE id 12', 'session-superseded'];

/** The panel's inner width at each viewport (what the chart's ResizeObserver reports, roughly). */
const WIDTHS = [1920 - 280, 1440 - 280, 1280 - 280, 390 - 34];

const timelineArb = fc.record({
  gaps: fc.array(
    fc.oneof(
      fc.constant(0),
      fc.integer({ min: 1, max: 20 }),
      fc.integer({ min: 20, max: 2_000 }),
      fc.integer({ min: 2_000, max: 400_000 }),
    ),
    {
      minLength: 1,
      maxLength: 60,
    },
  ),
  types: fc.array(fc.constantFrom(...TYPES), { minLength: 61, maxLength: 61 }),
  important: fc.array(fc.boolean(), { minLength: 61, maxLength: 61 }),
  noted: fc.array(fc.integer({ min: 0, max: 60 }), { maxLength: 3 }),
  marks: fc.array(fc.boolean(), { minLength: 61, maxLength: 61 }),
  ongoing: fc.boolean(),
  width: fc.oneof(fc.constantFrom(...WIDTHS), fc.integer({ min: 320, max: 2000 })),
  spacing: fc.constantFrom<Spacing>('time', 'sequence'),
  zoom: fc.option(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true })), { nil: null }),
  bracket: fc.option(fc.tuple(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 60 })), { nil: null }),
});

function overlaps(a: TextBox, b: TextBox): boolean {
  return a.l < b.r && b.l < a.r && a.t < b.b && b.t < a.b;
}

test('no two texts of the timeline overlap, for random timelines at any width, in either spacing, zoomed or not', () => {
  fc.assert(
    fc.property(timelineArb, (tl) => {
      const T = Date.parse('2026-12-01T10:00:00.000Z');
      const times = [T];
      for (const g of tl.gaps) times.push(times[times.length - 1] + g);
      const n = times.length;
      const endMs = tl.ongoing ? times[n - 1] + 30_000 : times[n - 1];
      let zoom: ZoomWindow | null = null;
      if (tl.zoom) {
        const [a, b] = tl.zoom.map((f) => times[0] + f * (endMs - times[0]));
        if (Math.abs(b - a) >= 2) zoom = { fromMs: Math.min(a, b), toMs: Math.max(a, b) };
      }
      const left = tl.width < 600 ? 58 : 92;
      const right = tl.width - 28;
      const axis = buildAxis({ times, endMs, ongoing: tl.ongoing, spacing: tl.spacing, zoom, left, right });
      const events: PlanEvent[] = times.map((_, i) => ({
        x: axis.x(i),
        visible: axis.visible(i),
        name: tl.types[i],
        important: tl.important[i] && i % 7 === 0,
        note: tl.noted.includes(i) ? NOTES[i % NOTES.length] : null,
        mark: tl.marks[i],
      }));
      const shown = axis.shown;
      const gaps =
        tl.spacing === 'sequence'
          ? shown.slice(1).map((i, k) => ({ x: (axis.x(shown[k]) + axis.x(i)) / 2, text: `+${times[i] - times[shown[k]]} ms` }))
          : [];
      const br = tl.bracket ? [axis.clip(axis.x(Math.min(tl.bracket[0], n - 1))), axis.clip(axis.x(Math.min(tl.bracket[1], n - 1)))] : null;
      const plan = planTimelineLabels({
        width: tl.width,
        left,
        right,
        events,
        gaps,
        bracket: br ? { x1: Math.min(...br), x2: Math.max(...br), text: 'deadlocked for 5 min 0 s' } : null,
        nowX: tl.ongoing && axis.endVisible ? axis.endX : null,
        axis: { start: '10:00:00.000', end: tl.ongoing ? 'now · 10:06:40.000' : '10:06:40.000' },
      });
      const boxes = textBoxes(plan);
      for (const [k, a] of boxes.entries()) {
        assert.ok(a.l >= 0 && a.r <= tl.width, `${a.kind} "${a.text}" leaves the chart (${a.l}…${a.r} of ${tl.width})`);
        for (const b of boxes.slice(k + 1)) assert.ok(!overlaps(a, b), `${a.kind} "${a.text}" overlaps ${b.kind} "${b.text}"`);
      }
      // Every event in view has its name or sits in a chip; none outside the view is drawn.
      const inChips = new Set(plan.chips.flatMap((c) => c.members));
      times.forEach((_, i) => {
        if (axis.visible(i)) assert.ok(plan.names[i] !== null || inChips.has(i), `event ${i} has no label and no chip`);
        else assert.ok(plan.names[i] === null && !inChips.has(i) && plan.notes[i] === null);
      });
    }),
    { numRuns: 300 },
  );
});

test('zooming to the door pulls its events apart on linear time', () => {
  // The seeded naive deadlock: door, drop, resume, naive answer within 110 ms, then 300 s idle.
  const T = Date.parse('2026-12-01T10:00:00.000Z');
  const times = [0, 1000, 1050, 1100, 1110, 301_110].map((d) => T + d);
  const extent = { fromMs: times[0], toMs: times[5] };
  for (const width of WIDTHS) {
    const left = width < 600 ? 58 : 92;
    const whole = buildAxis({ times, endMs: times[5], ongoing: false, spacing: 'time', zoom: null, left, right: width - 28 });
    // The whole session: the four door events fall within a pixel or two of each other.
    assert.ok(whole.x(4) - whole.x(1) < 3, `${width}: the door is a smear unzoomed (${whole.x(4) - whole.x(1)} px)`);
    const zoom = doorWindow(times, 1, 4, extent)!;
    assert.ok(zoom.fromMs < times[1] && zoom.toMs > times[4] && zoom.toMs < times[5]);
    const axis = buildAxis({ times, endMs: times[5], ongoing: false, spacing: 'time', zoom, left, right: width - 28 });
    assert.deepEqual(axis.shown, [1, 2, 3, 4]);
    for (const i of [2, 3, 4])
      assert.ok(axis.x(i) - axis.x(i - 1) >= 15, `${width}: events ${i - 1} and ${i} only ${axis.x(i) - axis.x(i - 1)} px apart`);
    const plan = planTimelineLabels({
      width,
      left,
      right: width - 28,
      events: times.map((_, i) => ({
        x: axis.x(i),
        visible: axis.visible(i),
        name: ['opened', 'upgrade.accepted', 'dropped', 'resume.requested', 'resume.accepted', 'timeout'][i],
        important: i === 1 || i === 3 || i === 4,
        note: null,
        mark: false,
      })),
      gaps: [],
      bracket: null,
      nowX: null,
      axis: { start: 'a', end: 'b' },
    });
    // Every door event carries its own name: no chip.
    assert.equal(plan.chips.length, 0, `${width}: ${plan.chips.map((c) => c.text).join(' ')}`);
    for (const i of [1, 2, 3, 4]) assert.ok(plan.names[i], `${width}: event ${i} unnamed`);
  }
});

test('on a smeared linear axis or a crowded even one the door, the boundary entry and its answer keep their names; the crowd goes to chips', () => {
  // 31 events in the first 21 s, the door and its resume within 110 ms, the timeout 300 s later.
  const T = Date.parse('2026-12-01T10:00:00.000Z');
  const offsets = [0];
  for (let k = 0; k < 10; k++) offsets.push(400 + k * 1900, 440 + k * 1900, 452 + k * 1900);
  offsets.push(21_000, 21_050, 21_100, 21_110, 321_110);
  const times = offsets.map((d) => T + d);
  const important = [31, 33, 34];
  const names = times.map((_, i) =>
    i === 0
      ? 'opened'
      : i === 31
        ? 'upgrade.accepted'
        : i === 35
          ? 'timeout'
          : i > 31
            ? ['dropped', 'resume.requested', 'resume.accepted'][i - 32]
            : ['dropped', 'resume.requested', 'resume.accepted'][(i - 1) % 3],
  );
  // The estimate, and metrics nearer a real sans-serif font (narrower: more labels fit, the
  // important ones crowd each other at the right end).
  const narrow = (t: string, px: number, bold: boolean) => Math.ceil(t.length * px * (bold ? 0.6 : 0.55)) + 2;
  const widths = [...WIDTHS, ...Array.from({ length: 101 }, (_, k) => 320 + k)];
  for (const measure of [estimateWidth, narrow])
    for (const width of widths)
      for (const spacing of ['time', 'sequence'] as const) {
        const left = width < 600 ? 58 : 92;
        const axis = buildAxis({ times, endMs: times[35], ongoing: false, spacing, zoom: null, left, right: width - 28 });
        const plan = planTimelineLabels(
          {
            width,
            left,
            right: width - 28,
            events: times.map((_, i) => ({
              x: axis.x(i),
              visible: true,
              name: names[i],
              important: important.includes(i),
              note: null,
              mark: false,
            })),
            gaps: [],
            bracket: null,
            nowX: null,
            axis: { start: '10:00:00.000', end: '10:05:21.110' },
          },
          measure,
        );
        for (const i of important) assert.ok(plan.names[i], `${width}, ${spacing}: event ${i} lost its name`);
        if (width < 600) assert.ok(plan.chips.length > 0);
      }
});

test('labels of the same millisecond read top-down in the timeline order (rows stack upwards, so the first is highest)', () => {
  // resume.requested then resume.accepted at one x, both important: the zoomed timeline used to stack
  // "accepted" above "requested".
  const items: ClusterItem[] = [
    { x: 100, width: estimateWidth('upgrade.accepted', 11, true), important: true },
    { x: 300, width: estimateWidth('resume.requested', 11, true), important: true },
    { x: 300, width: estimateWidth('resume.accepted', 11, true), important: true },
    { x: 300, width: estimateWidth('stream.dropped', 11, false) },
  ];
  const out = assertClusterInvariants(items, 3, 0, 600, 6);
  const rowOf = (i: number) => out.labels[i]?.row ?? -1;
  assert.ok(rowOf(1) > rowOf(2), `requested in row ${rowOf(1)}, accepted in row ${rowOf(2)}`);
  if (rowOf(3) >= 0) assert.ok(rowOf(2) > rowOf(3), `accepted in row ${rowOf(2)}, dropped in row ${rowOf(3)}`);
  // Any same-x group, any widths: whatever got a label is in timeline order from the top.
  fc.assert(
    fc.property(fc.array(fc.integer({ min: 20, max: 140 }), { minLength: 2, maxLength: 4 }), (widths) => {
      const same = widths.map((width) => ({ x: 250, width }));
      const o = assertClusterInvariants(same, 4, 0, 500, 6);
      const rows = o.labels.map((b) => b?.row ?? -1).filter((r) => r >= 0);
      assert.deepEqual(
        rows,
        [...rows].sort((a, b) => b - a),
      );
    }),
  );
});
