// The session timeline's axis and its URL state (lib/ui/timeline-axis.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { buildAxis, clampZoom, doorWindow, formatZoom, parseSpacing, parseZoom, zoomOut, type Spacing } from '@/lib/ui/timeline-axis';

const T = Date.parse('2026-12-01T10:00:00.000Z');

test('?zoom= reads two absolute instants and writes them back the same', () => {
  const z = { fromMs: T + 1000, toMs: T + 1250 };
  const raw = formatZoom(z);
  assert.equal(raw, '2026-12-01T10:00:01.000Z/2026-12-01T10:00:01.250Z');
  assert.deepEqual(parseZoom(raw), { ok: true, value: z });
  assert.deepEqual(parseZoom(null), { ok: true, value: null });
  assert.deepEqual(parseZoom(''), { ok: true, value: null });
  for (const bad of ['banana', '2026-12-01T10:00:01Z', 'now-5m/now', '2026-12-01T10:00:02Z/2026-12-01T10:00:01Z', 'a/b/c']) {
    const r = parseZoom(bad);
    assert.equal(r.ok, false, bad);
    assert.ok(!r.ok && r.problem.includes(bad), 'the problem names what it read');
  }
});

test('?spacing= is time, sequence or absent (automatic)', () => {
  assert.deepEqual(parseSpacing('time'), { ok: true, value: 'time' });
  assert.deepEqual(parseSpacing('sequence'), { ok: true, value: 'sequence' });
  assert.deepEqual(parseSpacing(null), { ok: true, value: null });
  assert.equal(parseSpacing('even').ok, false);
});

test('a zoom is kept inside the session; outside it, or covering all of it, is no zoom', () => {
  const extent = { fromMs: T, toMs: T + 10_000 };
  assert.deepEqual(clampZoom({ fromMs: T - 5000, toMs: T + 2000 }, extent), { zoom: { fromMs: T, toMs: T + 2000 }, outside: false });
  assert.deepEqual(clampZoom({ fromMs: T - 5000, toMs: T + 20_000 }, extent), { zoom: null, outside: false });
  assert.deepEqual(clampZoom({ fromMs: T + 20_000, toMs: T + 30_000 }, extent), { zoom: null, outside: true });
});

test('zoom out widens around the centre until it is the whole session', () => {
  const extent = { fromMs: T, toMs: T + 9_000 };
  let z = zoomOut({ fromMs: T + 4000, toMs: T + 5000 }, extent);
  assert.deepEqual(z, { fromMs: T + 3000, toMs: T + 6000 });
  z = zoomOut(z!, extent);
  assert.equal(z, null);
  // At the edge the window slides back in rather than leaving the session.
  assert.deepEqual(zoomOut({ fromMs: T, toMs: T + 1000 }, extent), { fromMs: T, toMs: T + 3000 });
});

test('the door window runs from upgrade.accepted to the resume, with margin; none without a door', () => {
  const times = [0, 1000, 1050, 1100, 1110, 301_110].map((d) => T + d);
  const extent = { fromMs: times[0], toMs: times[5] };
  assert.deepEqual(doorWindow(times, 1, 4, extent), { fromMs: T + 1000 - 27.5, toMs: T + 1110 + 27.5 });
  assert.equal(doorWindow(times, -1, 4, extent), null);
  // No resume: the door and the next event.
  assert.deepEqual(doorWindow(times, 1, -1, extent), { fromMs: T + 1000 - 12.5, toMs: T + 1050 + 12.5 });
});

test('the axis: events in the window between the edges in order; the brush inverts positions', () => {
  fc.assert(
    fc.property(
      fc.array(fc.integer({ min: 0, max: 5000 }), { minLength: 1, maxLength: 30 }),
      fc.constantFrom<Spacing>('time', 'sequence'),
      fc.boolean(),
      fc.option(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true })), { nil: null }),
      (gaps, spacing, ongoing, zf) => {
        const times = [T];
        for (const g of gaps) times.push(times[times.length - 1] + g);
        const endMs = times[times.length - 1] + (ongoing ? 10_000 : 0);
        const extent = { fromMs: T, toMs: endMs };
        const raw = zf ? { fromMs: T + Math.min(...zf) * (endMs - T), toMs: T + Math.max(...zf) * (endMs - T) } : null;
        const zoom = raw && raw.toMs - raw.fromMs >= 2 ? clampZoom(raw, extent).zoom : null;
        const axis = buildAxis({ times, endMs, ongoing, spacing, zoom, left: 50, right: 950 });
        let prev = -Infinity;
        for (const i of axis.shown) {
          assert.ok(times[i] >= axis.domain.fromMs && times[i] <= axis.domain.toMs);
          const x = axis.x(i);
          assert.ok(x >= 50 - 1e-9 && x <= 950 + 1e-9, `event ${i} at ${x}`);
          assert.ok(x >= prev - 1e-9, 'in order');
          if (spacing === 'sequence') assert.ok(x > prev, 'evenly spaced events never share a place');
          prev = x;
          // The brush's inverse lands on the event's own time.
          assert.ok(
            Math.abs(axis.invert(x) - times[i]) <= 1e-6 * Math.max(1, endMs - T) + 1e-6,
            `invert(${x}) = ${axis.invert(x)} ≠ ${times[i]}`,
          );
        }
        // Inverse is monotone across the plot and stays in the window.
        let last = -Infinity;
        for (let px = 50; px <= 950; px += 45) {
          const t = axis.invert(px);
          assert.ok(t >= last - 1e-6 && t >= axis.domain.fromMs - 1e-6 && t <= axis.domain.toMs + 1e-6);
          last = t;
        }
      },
    ),
    { numRuns: 400 },
  );
});

test('the axis: events that all share one instant invert to that instant, not past it', () => {
  // Found by the property above (gaps [0], time spacing, not ongoing): the window is one instant wide, and
  // the brush's inverse went up to 1 ms past it.
  const axis = buildAxis({ times: [T, T], endMs: T, ongoing: false, spacing: 'time', zoom: null, left: 50, right: 950 });
  for (const px of [50, 500, 950]) assert.equal(axis.invert(px), T);
  assert.equal(axis.x(0), 50);
});
