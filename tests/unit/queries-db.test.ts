// Query services against a real (temporary, migrated) SQLite database seeded through ingest.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDatabaseForFile } from '../support/migrated-database';
import { ingestEvents } from '@/lib/ingest/ingest-events';
import { computeStats } from '@/lib/queries/stats';
import { parseStatsQuery } from '@/lib/queries/stats-query';
import { parseSessionQuery } from '@/lib/queries/session-filter';
import { parseQuery } from '@/lib/http/parse-input';
import { ZSessionListQuery } from '@/lib/contract/api/sessions';
import { ZStatsQuery } from '@/lib/contract/api/stats';
import { iterateSessions, listSessions } from '@/lib/queries/session-list';
import { getSessionDetail } from '@/lib/queries/session-detail';
import { listServerVerdicts } from '@/lib/queries/server-verdicts';
import { ZStatsResponse } from '@/lib/contract/api/stats';
import { ZSessionListResponse } from '@/lib/contract/api/sessions';
import { ZSessionDetailResponse } from '@/lib/contract/api/session-detail';
import { ZServerListResponse } from '@/lib/contract/api/servers';
import { RejectionRecorder } from '@/lib/ingest/rejection-recorder';
import { countRejections, foldRejectionsBefore, rejectionTotals } from '@/lib/store/ingest-rejections';
import { addServer } from '@/lib/store/servers/server-registry';
import { DEFAULT_DEADLOCK_MAX_MS } from '@/lib/boundary/deadlock-as-of';
import { Q_ALL_TOKENS, Q_BATCHES, Q_EXPECTED, Q_ONGOING_START, Q_RANGE, Q_T0 } from '../support/query-fixtures';
import { searchParams } from '../support/search-params';

const NOW = Q_T0 + 3_600_000; // an hour after the data: the unended naive resume is an ongoing deadlock
const THRESHOLD = 10_000;

const database = migratedDatabaseForFile(async (db) => {
  await addServer(db, 'delta');
  for (const b of Q_BATCHES) {
    const r = await ingestEvents(db, b.server, b.events, { now: NOW });
    assert.deepEqual(r.rejected, []);
  }
});

const sessionParams = (o: Record<string, string | string[]>) => parseQuery(ZSessionListQuery, searchParams(o));
const statsParams = (o: Record<string, string | string[]>) => parseQuery(ZStatsQuery, searchParams(o));

async function list(o: Record<string, string | string[]>, nowMs = NOW) {
  return listSessions(database(), parseSessionQuery(sessionParams(o), nowMs, THRESHOLD, 0));
}

describe('stats', () => {
  test('totals over the known timelines match the definitions', async () => {
    const s = await computeStats(database(), { ...parseStatsQuery(statsParams(Q_RANGE), NOW), thresholdMs: THRESHOLD });
    ZStatsResponse.parse(s);
    for (const k of [
      'events',
      'sessions',
      'drops',
      'boundary',
      'refused',
      'naiveResumes',
      'dualNegotiations',
      'burnedTokenReuses',
    ] as const) {
      assert.equal(s[k], Q_EXPECTED[k], k);
    }
    assert.deepEqual(s.refusalLatencyMs, Q_EXPECTED.refusalLatencyMs);
    assert.deepEqual(s.renegotiations, Q_EXPECTED.renegotiations);
    assert.deepEqual(s.deadlocks, {
      total: 2,
      ongoing: 1,
      unreported: 0,
      stuckNow: 1,
      stuckSince: new Date(Q_ONGOING_START).toISOString(),
      idleMs: Q_EXPECTED.endedDeadlockIdleMs + (NOW - Q_ONGOING_START),
      // When the stuck client's wait passes the default DOORWATCH_DEADLOCK_MAX_MS (its end unreported).
      nextOngoingAt: new Date(Q_ONGOING_START + DEFAULT_DEADLOCK_MAX_MS).toISOString(),
    });
    assert.equal(s.bucketMs, 60_000);
    assert.equal(s.series.length, 10);
    const hist = Object.fromEntries(s.refusalLatencyHistogram.filter((b) => b.count).map((b) => [b.fromMs, b.count]));
    // 30 ms in (25, 50]; 51, 60 and 100 ms in (50, 100] (≤ the edge, as Prometheus's le).
    assert.deepEqual(hist, { 25: 1, 50: 3 });
  });

  test('series: each counter at its anchor minute; the buckets add up to the totals', async () => {
    const s = await computeStats(database(), { ...parseStatsQuery(statsParams(Q_RANGE), NOW), thresholdMs: THRESHOLD });
    const m = (i: number) => s.series[i];
    assert.equal(m(0).t, Q_RANGE.from);
    assert.equal(m(0).sessions, 4);
    assert.equal(m(0).renegotiations, 2);
    assert.equal(m(1).deadlocks, 1); // ended, at its start minute
    assert.equal(m(4).deadlocks, 1); // ongoing, at its start minute
    assert.equal(m(5).burnedTokenReuses, 1);
    for (const k of ['events', 'sessions', 'drops', 'refused'] as const) {
      assert.equal(
        s.series.reduce((a, b) => a + b[k], 0),
        s[k],
        k,
      );
    }
    assert.equal(
      s.series.reduce((a, b) => a + b.renegotiations, 0),
      s.renegotiations.count,
    );
    assert.equal(
      s.series.reduce((a, b) => a + b.deadlocks, 0),
      s.deadlocks.total,
    );
  });

  test("split=version: read from the sessions at the rollups' anchors, the one version-less entry equals the totals and series", async () => {
    const s = await computeStats(database(), {
      ...parseStatsQuery(statsParams({ ...Q_RANGE, split: 'version' }), NOW),
      thresholdMs: THRESHOLD,
    });
    ZStatsResponse.parse(s);
    assert.equal(s.byVersion?.length, 1);
    const [v] = s.byVersion!;
    assert.equal(v.version, null);
    for (const k of ['sessions', 'boundary', 'refused', 'naiveResumes', 'dualNegotiations', 'burnedTokenReuses'] as const)
      assert.equal(v[k], s[k], k);
    assert.deepEqual([v.deadlocks, v.ongoingDeadlocks, v.renegotiations], [s.deadlocks.total, s.deadlocks.ongoing, s.renegotiations.count]);
    assert.deepEqual(v.refusalLatencyMs, s.refusalLatencyMs);
    assert.deepEqual(
      v.series,
      s.series.map(({ t, boundary, refused, naiveResumes, deadlocks, renegotiations }) => ({
        t,
        boundary,
        refused,
        naiveResumes,
        deadlocks,
        renegotiations,
      })),
    );
    const none = await computeStats(database(), {
      ...parseStatsQuery(statsParams({ ...Q_RANGE, version: 'v9' }), NOW),
      thresholdMs: THRESHOLD,
    });
    assert.deepEqual(none.byVersion, []);
    assert.equal(none.sessions, s.sessions, 'version= narrows byVersion, not the totals');
  });

  test('series: exact refusal and renegotiation latency percentiles per bucket', async () => {
    const none = { count: 0, min: null, p50: null, p95: null, max: null };
    const s = await computeStats(database(), { ...parseStatsQuery(statsParams(Q_RANGE), NOW), thresholdMs: THRESHOLD });
    // 1-minute buckets: a-ref1 (51) and a-ref2 (100) in minute 0, a-ref3 (30) in 2, g-burn (60) in 5;
    // both renegotiations (149 and 300 ms) in minute 0.
    const refusal = s.series.map((b) => b.refusalLatencyMs);
    assert.deepEqual(refusal[0], { count: 2, min: 51, p50: 51, p95: 100, max: 100 });
    assert.deepEqual(refusal[2], { count: 1, min: 30, p50: 30, p95: 30, max: 30 });
    assert.deepEqual(refusal[5], { count: 1, min: 60, p50: 60, p95: 60, max: 60 });
    for (const i of [1, 3, 4, 6, 7, 8, 9]) assert.deepEqual(refusal[i], none, `minute ${i}`);
    assert.deepEqual(s.series[0].renegotiationLatencyMs, { count: 2, min: 149, p50: 149, p95: 300, max: 300 });
    for (const b of s.series.slice(1)) assert.deepEqual(b.renegotiationLatencyMs, none, b.t);
    assert.equal(
      refusal.reduce((a, b) => a + b.count, 0),
      s.refusalLatencyMs.count,
    );

    // 5-minute buckets: [30, 51, 100] → p50 at rank 2, p95 at rank 3; then g-burn alone.
    const five = await computeStats(database(), {
      ...parseStatsQuery(statsParams({ ...Q_RANGE, bucket: '5m' }), NOW),
      thresholdMs: THRESHOLD,
    });
    ZStatsResponse.parse(five);
    assert.deepEqual(
      five.series.map((b) => b.refusalLatencyMs),
      [
        { count: 3, min: 30, p50: 51, p95: 100, max: 100 },
        { count: 1, min: 60, p50: 60, p95: 60, max: 60 },
      ],
    );
    // The range totals (derived from the same rows) do not depend on the bucket size.
    assert.deepEqual(five.refusalLatencyMs, Q_EXPECTED.refusalLatencyMs);
    assert.deepEqual(five.renegotiations, Q_EXPECTED.renegotiations);
    assert.deepEqual(five.refusalLatencyHistogram, s.refusalLatencyHistogram);

    // Server filter applies to the per-bucket rows too: gamma has only g-burn.
    const gamma = await computeStats(database(), {
      ...parseStatsQuery(statsParams({ ...Q_RANGE, server: 'gamma', bucket: '5m' }), NOW),
      thresholdMs: THRESHOLD,
    });
    assert.deepEqual(
      gamma.series.map((b) => b.refusalLatencyMs),
      [none, { count: 1, min: 60, p50: 60, p95: 60, max: 60 }],
    );
  });

  test('server filter and the reader’s clock', async () => {
    const alpha = await computeStats(database(), {
      ...parseStatsQuery(statsParams({ ...Q_RANGE, server: 'alpha' }), NOW),
      thresholdMs: THRESHOLD,
    });
    assert.equal(alpha.sessions, 4);
    assert.equal(alpha.refused, 3);
    assert.equal(alpha.renegotiations.count, 2);
    assert.equal(alpha.renegotiations.rate, 2 / 3);
    assert.equal(alpha.deadlocks.total, 0);
    // 5 s after the naive resume the candidate is not yet a deadlock.
    const early = Q_ONGOING_START + 5_000;
    const s = await computeStats(database(), { ...parseStatsQuery(statsParams(Q_RANGE), early), thresholdMs: THRESHOLD });
    assert.equal(s.deadlocks.ongoing, 0);
    assert.equal(s.deadlocks.total, 1);
    // No event will mark the moment it becomes one: the answer says when.
    assert.equal(s.deadlocks.nextOngoingAt, new Date(Q_ONGOING_START + THRESHOLD).toISOString());
    const other = await computeStats(database(), {
      ...parseStatsQuery(statsParams({ ...Q_RANGE, server: 'alpha' }), early),
      thresholdMs: THRESHOLD,
    });
    assert.equal(other.deadlocks.nextOngoingAt, null, 'the server filter applies');
  });

  test('a bucket larger than the range gives one bucket with the totals; an empty range gives zeros', async () => {
    const s = await computeStats(database(), {
      ...parseStatsQuery(statsParams({ ...Q_RANGE, bucket: '1h' }), NOW),
      thresholdMs: THRESHOLD,
    });
    assert.equal(s.series.length, 1);
    assert.equal(s.series[0].sessions, 9);
    const e = await computeStats(database(), {
      ...parseStatsQuery(statsParams({ from: '2020-01-01T00:00:00Z', to: '2020-01-01T01:00:00Z' }), NOW),
      thresholdMs: THRESHOLD,
    });
    assert.equal(e.sessions, 0);
    assert.equal(e.renegotiations.rate, null);
    assert.deepEqual(e.refusalLatencyMs, { count: 0, min: null, p50: null, p95: null, p99: null, max: null });
    for (const b of e.series) {
      assert.deepEqual(b.refusalLatencyMs, { count: 0, min: null, p50: null, p95: null, max: null });
      assert.deepEqual(b.renegotiationLatencyMs, { count: 0, min: null, p50: null, p95: null, max: null });
    }
  });
});

describe('session list', () => {
  test('all sessions, newest activity first, schema-valid', async () => {
    const r = await list({ limit: '100' });
    ZSessionListResponse.parse(r);
    assert.deepEqual(new Set(r.sessions.map((s) => s.token)), new Set(Q_ALL_TOKENS));
    const lasts = r.sessions.map((s) => Date.parse(s.lastEventAt!));
    assert.deepEqual(
      lasts,
      [...lasts].sort((a, b) => b - a),
    );
    assert.equal(r.nextCursor, null);
  });

  test('filters: flag (AND), server, state, token prefix, time range', async () => {
    const tokens = async (o: Record<string, string | string[]>) => (await list(o)).sessions.map((s) => s.token).sort();
    assert.deepEqual(await tokens({ flag: 'refused' }), ['a-ref1', 'a-ref2', 'a-ref3', 'g-burn']);
    assert.deepEqual(await tokens({ flag: ['refused', 'renegotiated'] }), ['a-ref1', 'a-ref2']);
    assert.deepEqual(await tokens({ flag: 'deadlock' }), ['b-naive', 'b-ongoing']);
    assert.deepEqual(await tokens({ flag: 'dual_negotiation' }), ['b-dual']);
    assert.deepEqual(await tokens({ flag: 'burned_token_reuse' }), ['g-burn']);
    assert.deepEqual(await tokens({ server: 'beta' }), ['b-dual', 'b-naive', 'b-new1', 'b-ongoing']);
    assert.deepEqual(await tokens({ state: 'websocket_bound' }), ['b-new1']);
    assert.deepEqual(await tokens({ token: 'a-ref' }), ['a-ref1', 'a-ref2', 'a-ref3']);
    assert.deepEqual(await tokens({ token: 'a-ref1' }), ['a-ref1']);
    assert.deepEqual(await tokens({ token: 'A-REF' }), []);
    assert.deepEqual(await tokens({ from: new Date(Q_T0 + 120_000).toISOString(), to: new Date(Q_T0 + 200_000).toISOString() }), [
      'a-ref3',
      'b-dual',
      'b-naive',
    ]);
  });

  test('deadlock and ongoing are decided with the reader’s clock', async () => {
    const early = Q_ONGOING_START + 5_000;
    const r = await list({ token: 'b-ongoing' }, early);
    assert.equal(r.sessions[0].deadlock, null);
    assert.ok(!r.sessions[0].flags.includes('deadlock'));
    assert.equal(r.sessions[0].deadlockCandidateSince, new Date(Q_ONGOING_START).toISOString());
    const later = await list({ token: 'b-ongoing' });
    assert.deepEqual(later.sessions[0].deadlock, {
      startedAt: new Date(Q_ONGOING_START).toISOString(),
      endedAt: null,
      durationMs: NOW - Q_ONGOING_START,
      ongoing: true,
    });
    assert.ok(later.sessions[0].flags.includes('deadlock'));
    assert.deepEqual(
      (await list({ flag: 'deadlock' }, early)).sessions.map((s) => s.token),
      ['b-naive'],
    );
  });

  for (const sort of ['-lastEventAt', 'lastEventAt', '-firstEventAt', 'firstEventAt']) {
    test(`pagination (${sort}): every page joined is the full ordered list, no duplicates or gaps`, async () => {
      const full = (await list({ sort, limit: '500' })).sessions.map((s) => `${s.server}/${s.token}`);
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page: Awaited<ReturnType<typeof list>> = await list({ sort, limit: '2', ...(cursor ? { cursor } : {}) });
        seen.push(...page.sessions.map((s) => `${s.server}/${s.token}`));
        cursor = page.nextCursor;
        pages++;
      } while (cursor);
      assert.equal(pages, 5);
      assert.deepEqual(seen, full);
    });
  }

  test('a session inserted ahead of the cursor does not shift the next page', async () => {
    const p1 = await list({ limit: '3' });
    const before = await list({ limit: '3', cursor: p1.nextCursor! });
    await ingestEvents(
      database(),
      'zeta',
      [{ id: 'z.0', token: 'z-late', type: 'session.opened', at: new Date(Q_T0 + 500_000).toISOString(), data: {} }],
      { now: NOW },
    );
    const after = await list({ limit: '3', cursor: p1.nextCursor! });
    assert.deepEqual(
      after.sessions.map((s) => s.token),
      before.sessions.map((s) => s.token),
    );
    await database().sql.execute('DELETE FROM "Session" WHERE "server" = ?', ['zeta']);
    await database().sql.execute('DELETE FROM "Event" WHERE "server" = ?', ['zeta']);
    await database().sql.execute('DELETE FROM "Rollup" WHERE "server" = ?', ['zeta']);
  });

  test('export iterates the whole filtered set regardless of page size', async () => {
    const q = parseSessionQuery(sessionParams({ flag: 'boundary', limit: '1' }), NOW, THRESHOLD, 0);
    const out: string[] = [];
    for await (const s of iterateSessions(database(), q, 2)) out.push(s.token);
    assert.deepEqual(out.sort(), ['a-ref1', 'a-ref2', 'a-ref3', 'b-naive', 'b-ongoing', 'g-burn']);
  });
});

describe('session detail', () => {
  test('timeline in order and the chain across servers', async () => {
    const d = await getSessionDetail(database(), 'alpha', 'a-ref1', NOW, THRESHOLD, 0);
    ZSessionDetailResponse.parse(d);
    assert.deepEqual(
      d.timeline.map((e) => e.type),
      ['session.opened', 'upgrade.accepted', 'stream.dropped', 'resume.requested', 'resume.refused'],
    );
    assert.equal(d.timeline[1].data.eventId, 7);
    assert.deepEqual(d.chain.predecessors, []);
    assert.deepEqual(
      d.chain.successors.map((l) => `${l.server}/${l.token}`),
      ['beta/b-new1'],
    );
    assert.equal(d.session.successorServer, 'beta');
    assert.equal(d.session.renegotiationLatencyMs, 149);
    const succ = await getSessionDetail(database(), 'beta', 'b-new1', NOW, THRESHOLD, 0);
    assert.deepEqual(
      succ.chain.predecessors.map((l) => `${l.server}/${l.token}`),
      ['alpha/a-ref1'],
    );
    assert.equal(succ.chain.truncated, false);
  });

  test('unknown session → session_not_found; unknown server → server_not_found', async () => {
    await assert.rejects(
      getSessionDetail(database(), 'alpha', 'nope', NOW, THRESHOLD, 0),
      (e: any) => e.status === 404 && e.code === 'session_not_found',
    );
    await assert.rejects(getSessionDetail(database(), 'beta', 'a-ref1', NOW, THRESHOLD, 0), (e: any) => e.code === 'session_not_found');
    // delta is registered and never reported: it exists, the session does not.
    await assert.rejects(getSessionDetail(database(), 'delta', 'a-ref1', NOW, THRESHOLD, 0), (e: any) => e.code === 'session_not_found');
    await assert.rejects(
      getSessionDetail(database(), 'nowhere', 'a-ref1', NOW, THRESHOLD, 0),
      (e: any) => e.status === 404 && e.code === 'server_not_found',
    );
  });
});

describe('servers', () => {
  test('verdicts, counts, last seen; registered servers without data are unknown', async () => {
    const r = await listServerVerdicts(database(), { fromMs: Q_T0, toMs: NOW, fromInput: 'a', toInput: 'b' });
    ZServerListResponse.parse(r);
    const by = Object.fromEntries(r.servers.map((s) => [s.name, s]));
    assert.equal(by.alpha.verdict, 'refuses');
    assert.equal(by.beta.verdict, 'naive');
    assert.equal(by.beta.counts.naiveResumes, 2);
    assert.equal(by.beta.counts.dualNegotiations, 1);
    assert.equal(by.gamma.verdict, 'naive');
    assert.equal(by.gamma.counts.burnedTokenReuses, 1);
    assert.equal(by.delta.verdict, 'unknown');
    assert.equal(by.delta.events, 0);
    assert.equal(by.delta.lastSeenAt, null);
    assert.ok(by.delta.registeredAt);
    assert.equal(by.alpha.events, 16);
    assert.equal(by.alpha.sessions, 4);
    assert.equal(by.alpha.lastSeenAt, new Date(Q_T0 + 120_230).toISOString());
  });
});

describe('ingest rejections', () => {
  test('counted per server and reason; unknown names share one bucket with the last names; folding keeps totals', async () => {
    const rec = new RejectionRecorder(() => database().sql, 60_000);
    const at = Q_T0 + 30_000;
    rec.record({ server: 'delta', reason: 'signature_mismatch', at });
    rec.record({ server: 'delta', reason: 'timestamp_out_of_tolerance', at: at + 1_000, skewMs: 360_000 });
    for (let i = 0; i < 14; i++) rec.record({ server: `made-up-${i}`, reason: 'unknown_server', at: at + i });
    // A made-up name with another reason (a 415 before the signature check) also lands in the bucket.
    rec.record({ server: 'nobody', reason: 'unsupported_media_type', at: at + 2_000 });
    await rec.flush();
    rec.record({ server: 'delta', reason: 'rate_limited', at: at + 61_000 });
    await rec.flush();

    assert.equal(await countRejections(database().sql, { fromMs: Q_T0, toMs: NOW, server: null }), 18);
    assert.equal(await countRejections(database().sql, { fromMs: Q_T0, toMs: NOW, server: 'delta' }), 3);
    assert.equal(await countRejections(database().sql, { fromMs: Q_T0 + 60_000, toMs: NOW, server: 'delta' }), 1);
    assert.equal(await countRejections(database().sql, { fromMs: NOW, toMs: NOW + 60_000, server: null }), 0);

    const r = await listServerVerdicts(database(), { fromMs: Q_T0, toMs: NOW, fromInput: 'a', toInput: 'b' });
    ZServerListResponse.parse(r);
    const delta = r.servers.find((s) => s.name === 'delta')!;
    assert.deepEqual(delta.rejections.byReason, { signature_mismatch: 1, timestamp_out_of_tolerance: 1, rate_limited: 1 });
    assert.equal(delta.rejections.last?.reason, 'rate_limited');
    assert.equal(
      r.servers.some((s) => s.name.startsWith('made-up')),
      false,
    );
    assert.equal(r.unknownServers.count, 15);
    assert.equal(r.unknownServers.recentNames.length, 10);
    assert.ok(r.unknownServers.recentNames.includes('nobody'));

    const first = await listServerVerdicts(database(), { fromMs: Q_T0, toMs: Q_T0 + 60_000, fromInput: 'a', toInput: 'b' });
    const d1 = first.servers.find((s) => s.name === 'delta')!;
    assert.equal(d1.rejections.last?.reason, 'timestamp_out_of_tolerance');
    assert.equal(d1.rejections.last?.skewMs, 360_000);

    const before = await rejectionTotals(database().sql);
    await foldRejectionsBefore(database().sql, NOW + 3_600_000);
    const sum = (rows: typeof before) => rows.reduce((n, x) => n + x.count, 0);
    assert.equal(sum(await rejectionTotals(database().sql)), sum(before));
    assert.equal(await countRejections(database().sql, { fromMs: Q_T0, toMs: NOW, server: null }), 0, 'folded history is in no range');
  });
});
