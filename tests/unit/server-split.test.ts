import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TServerSplit } from '@/lib/contract/api/stats';
import { SERVER_COLORS, serverColorSlots } from '@/lib/ui/palette';
import { SPLIT_TOP, splitByServer } from '@/lib/ui/server-split';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const times = [T0, T0 + 60_000, T0 + 120_000].map((t) => new Date(t).toISOString());

function server(name: string, boundary: number[], deadlocks = [0, 0, 0]): TServerSplit {
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  return {
    server: name,
    events: 0,
    sessions: 0,
    drops: 0,
    boundary: sum(boundary),
    refused: 0,
    naiveResumes: 0,
    dualNegotiations: 0,
    burnedTokenReuses: 0,
    deadlocks: sum(deadlocks),
    renegotiations: 0,
    ongoingDeadlocks: 0,
    stuckNow: 0,
    lastDeadlockAt: null,
    series: times.map((t, i) => ({ t, boundary: boundary[i], refused: 0, naiveResumes: 0, deadlocks: deadlocks[i], renegotiations: 0 })),
  } as TServerSplit;
}

test('one series per server, most first; servers without the measure are left out', () => {
  const { series, rows } = splitByServer([server('a', [1, 0, 0]), server('b', [0, 2, 3], [0, 1, 0]), server('c', [0, 0, 0])], 'boundary');
  assert.deepEqual(
    series.map((s) => [s.key, s.server, s.total]),
    [
      ['srv0', 'b', 5],
      ['srv1', 'a', 1],
    ],
  );
  assert.deepEqual(rows, [
    { t: T0, srv0: 0, srv1: 1 },
    { t: T0 + 60_000, srv0: 2, srv1: 0 },
    { t: T0 + 120_000, srv0: 3, srv1: 0 },
  ]);
  assert.deepEqual(
    splitByServer([server('a', [1, 0, 0]), server('b', [0, 2, 3], [0, 1, 0])], 'deadlocks').series.map((s) => s.server),
    ['b'],
  );
});

test('the top few by name, the rest summed into "other" whose bars add up to the total', () => {
  const many = Array.from({ length: 9 }, (_, i) => server(`srv.${i}.example`, [i + 1, i, 0]));
  const { series, rows } = splitByServer(many, 'boundary');
  assert.equal(series.length, SPLIT_TOP + 1);
  assert.deepEqual(
    series.slice(0, SPLIT_TOP).map((s) => s.server),
    ['srv.8.example', 'srv.7.example', 'srv.6.example', 'srv.5.example', 'srv.4.example'],
  );
  assert.equal(series[SPLIT_TOP].server, null);
  assert.equal(series[SPLIT_TOP].label, 'other (4 servers)');
  for (const [i, row] of rows.entries()) {
    const drawn = Object.entries(row)
      .filter(([k]) => k !== 't')
      .reduce((a, [, v]) => a + v, 0);
    assert.equal(
      drawn,
      many.reduce((a, s) => a + s.series[i].boundary, 0),
    );
  }
  // One server beyond the top few is shown by name, not as "other (1 servers)".
  assert.equal(
    splitByServer(many.slice(0, SPLIT_TOP + 1), 'boundary').series.every((s) => s.server !== null),
    true,
  );
});

test('server colours: stable per name, distinct within a set, independent of order', () => {
  const names = ['demo-us-1', 'demo-eu-1', 'demo-ap-1', 'mcp-good', 'mcp-naive'];
  const a = serverColorSlots(names);
  const b = serverColorSlots([...names].reverse());
  assert.deepEqual([...a].sort(), [...b].sort());
  assert.equal(new Set(a.values()).size, names.length);
  for (const slot of a.values()) assert.ok(slot >= 0 && slot < SERVER_COLORS.light.length);
  // More servers than colours still gives every server a slot.
  const lots = serverColorSlots(Array.from({ length: 20 }, (_, i) => `s${i}`));
  assert.equal(lots.size, 20);
});
