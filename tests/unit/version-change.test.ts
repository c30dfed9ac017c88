// The verdict's "naive since vX" (lib/queries/version-change.ts) and the chart markers' placement (lib/ui/chart-markers.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { versionChange, type VersionFacts } from '@/lib/queries/version-change';
import { bucketOf, chartMarkers } from '@/lib/ui/chart-markers';

const T = Date.UTC(2026, 11, 4, 13, 59);
const v = (version: string, firstSeenAt: number, naiveResumes: number, refusals: number): VersionFacts => ({
  version,
  firstSeenAt,
  sessions: naiveResumes + refusals,
  naiveResumes,
  dualNegotiations: 0,
  burnedReuses: 0,
  refusals,
});

test('a naive version after a refusing one: "naive since", with the first naive resume and the minutes after its first report', () => {
  const change = versionChange([v('v2.3.1', T, 4, 0), v('v2.3.0', T - 3_600_000, 0, 9)], new Map([['v2.3.1', T + 3 * 60_000]]), T);
  assert.equal(change?.kind, 'became_naive');
  assert.equal(change?.text, 'naive since v2.3.1: first naive resume 14:02, 3 minutes after v2.3.1 first reported (v2.3.0 refused)');
  assert.equal(change?.firstNaiveResumeAt, new Date(T + 3 * 60_000).toISOString());
});

test('a rollback that refuses again is the latest change; versions that proved nothing are skipped', () => {
  const rows = [v('v1', T - 7_200_000, 0, 5), v('v2', T - 3_600_000, 3, 0), v('v2.1', T - 1_800_000, 0, 0), v('v1-again', T, 0, 2)];
  const change = versionChange(rows, new Map(), T);
  assert.equal(change?.kind, 'stopped_naive');
  assert.equal(change?.version, 'v1-again');
  assert.equal(change?.previousVersion, 'v2');
  assert.equal(change?.text, 'refuses since v1-again (first reported 13:59): v2 resumed naively');
});

test('no change when every version behaves alike, or only one proved anything', () => {
  assert.equal(versionChange([v('a', T, 1, 0), v('b', T + 1, 2, 0)], new Map(), T), null);
  assert.equal(versionChange([v('a', T, 0, 0), v('b', T + 1, 2, 0)], new Map(), T), null);
  assert.equal(versionChange([], new Map(), T), null);
});

test('without a naive resume time (dual negotiations only) the text counts the sessions', () => {
  const rows = [v('a', T - 60_000, 0, 1), { ...v('b', T, 0, 0), dualNegotiations: 2 }];
  assert.equal(versionChange(rows, new Map(), T)?.text, 'naive since b: 2 naive sessions, first reported 13:59 (a refused)');
});

test('markers sit on the bucket their time falls in; outside the axis they are left out', () => {
  const starts = [0, 60_000, 120_000];
  assert.equal(bucketOf(59_999, starts, 60_000), 0);
  assert.equal(bucketOf(60_000, starts, 60_000), 60_000);
  assert.equal(bucketOf(179_999, starts, 60_000), 120_000);
  assert.equal(bucketOf(180_000, starts, 60_000), null);
  assert.equal(bucketOf(-1, starts, 60_000), null);
  const markers = chartMarkers(
    {
      annotations: [
        {
          id: 'x',
          time: new Date(70_000).toISOString(),
          timeEnd: null,
          text: 'a'.repeat(40),
          tags: ['deploy'],
          server: 's',
          createdBy: 'ci',
          createdAt: new Date(0).toISOString(),
        },
      ],
      versions: [
        { server: 's', version: 'v1', firstSeenAt: new Date(10_000).toISOString() },
        { server: 's', version: 'late', firstSeenAt: new Date(500_000).toISOString() },
      ],
    },
    starts,
    60_000,
  );
  assert.deepEqual(
    markers.map((m) => [m.kind, m.x, m.label.length, m.title.slice(-12)]),
    [
      ['version', 0, 2, 'first reported v1'.slice(-12)],
      ['annotation', 60_000, 24, '[deploy] — s'],
    ],
  );
});
