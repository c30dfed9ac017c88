// Every list's total counts what its filter matches over all pages, the code/kind/verdict filters
// included, on a real database of each provider (no app needed): sessions, dead letters, alert
// history, probe history. Totals are counted up to a cap and say when they were cut.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ingestEvents } from '@/lib/ingest/ingest-events';
import { parseQuery } from '@/lib/http/parse-input';
import { ZSessionListQuery, ZSessionListResponse } from '@/lib/contract/api/sessions';
import { ZDeadLetterListResponse, ZDeadLetterQuery } from '@/lib/contract/api/dead-letters';
import { ZAlertHistoryQuery, ZAlertHistoryResponse, type TAlertTransitionKind } from '@/lib/contract/api/alerts';
import { ZProbeHistoryQuery, ZProbeHistoryResponse } from '@/lib/contract/api/probes';
import type { ProbeResult, ProbeVerdict } from '@/lib/contract/probe-result';
import { parseSessionQuery } from '@/lib/queries/session-filter';
import { listSessions } from '@/lib/queries/session-list';
import { listDeadLetters, parseDeadLetterQuery } from '@/lib/queries/dead-letter-list';
import { probeHistory } from '@/lib/queries/probe-history';
import { alertHistory } from '@/lib/alerts/alert-history';
import { countUpTo } from '@/lib/store/capped-count';
import { storeDeadLetters } from '@/lib/store/dead-letters';
import { insertAlertTransition } from '@/lib/store/alert-transitions';
import { insertProbeRun } from '@/lib/store/probe-runs';
import { TABLE_SQL } from '@/lib/store/tables';
import { migratedDatabaseForFile } from '../support/migrated-database';

const NOW = Date.parse('2026-11-29T12:00:00.000Z');

const params = (q: Record<string, string>) => new URLSearchParams(q);

const database = migratedDatabaseForFile(async (db) => {
  // Sessions: 7 on edge (3 refused at the boundary), 2 on other.
  const events = [];
  for (let i = 0; i < 7; i++) {
    const token = `tok-${i}`;
    const t = NOW - 30 * 60_000 + i * 1000;
    events.push({ id: `${token}-o`, token, type: 'session.opened', at: new Date(t).toISOString(), data: {} });
    if (i < 3) {
      events.push(
        { id: `${token}-u`, token, type: 'upgrade.accepted', at: new Date(t + 10).toISOString(), data: { eventId: 4 } },
        { id: `${token}-d`, token, type: 'stream.dropped', at: new Date(t + 20).toISOString(), data: {} },
        { id: `${token}-r`, token, type: 'resume.requested', at: new Date(t + 30).toISOString(), data: { lastEventId: 4 } },
        { id: `${token}-x`, token, type: 'resume.refused', at: new Date(t + 40).toISOString(), data: { reason: 'session-superseded' } },
      );
    }
  }
  assert.deepEqual((await ingestEvents(db, 'edge', events, { now: NOW })).rejected, []);
  const other = [0, 1].map((i) => ({
    id: `o-${i}`,
    token: `other-${i}`,
    type: 'session.opened',
    at: new Date(NOW - 60_000 + i).toISOString(),
    data: {},
  }));
  assert.deepEqual((await ingestEvents(db, 'other', other, { now: NOW })).rejected, []);

  // Dead letters: 5 invalid_type and 2 invalid_body on edge, 4 invalid_field on other.
  const letters = (server: string, code: string, n: number) =>
    Array.from({ length: n }, (_, i) => ({ server, code, message: `${code} ${i}`, eventIndex: i, eventId: `e${i}`, payload: '{}' }));
  await storeDeadLetters(db.sql, [...letters('edge', 'invalid_type', 5), ...letters('edge', 'invalid_body', 2)], NOW - 10 * 60_000);
  await storeDeadLetters(db.sql, letters('other', 'invalid_field', 4), NOW - 5 * 60_000);

  // Alert history: rule-a went pending/firing/resolved three times; rule-b pending then cleared once.
  const transition = (ruleId: string, kind: TAlertTransitionKind, at: number) =>
    insertAlertTransition(db.sql, {
      id: `${ruleId}-${kind}-${at}`,
      ruleId,
      ruleName: ruleId,
      kind,
      at,
      value: 1,
      measure: 'naive_resumes',
      comparison: 'gt',
      threshold: 0,
      windowMs: 300_000,
      server: null,
      series: '',
      sequence: 0,
    });
  for (let i = 0; i < 3; i++)
    for (const [k, kind] of (['pending', 'firing', 'resolved'] as const).entries()) await transition('rule-a', kind, NOW - i * 60_000 + k);
  await transition('rule-b', 'pending', NOW - 1000);
  await transition('rule-b', 'cleared', NOW - 500);

  // Probe runs on edge: 4 pass, 3 fail, 1 inconclusive.
  const run = (verdict: ProbeVerdict, i: number): ProbeResult => ({
    target: 'http://127.0.0.1:1/mcp',
    startedAt: new Date(NOW - i * 60_000).toISOString(),
    durationMs: 12,
    steps: [],
    classification: { verdict, steps: [] },
  });
  const verdicts: ProbeVerdict[] = ['pass', 'fail', 'pass', 'fail', 'inconclusive', 'pass', 'fail', 'pass'];
  for (const [i, v] of verdicts.entries()) await insertProbeRun(db.sql, 'edge', run(v, i), 'schedule', `run-${i}`);
});

describe('list totals match the filter', () => {
  const sessions = async (q: Record<string, string>) =>
    ZSessionListResponse.parse(
      await listSessions(
        database(),
        parseSessionQuery(parseQuery(ZSessionListQuery, params({ from: 'now-1h', to: 'now', ...q })), NOW, 10_000, 0),
      ),
    );

  test('sessions: the total over all pages, under the server and flag filters', async () => {
    const all = await sessions({ limit: '2' });
    assert.equal(all.sessions.length, 2);
    assert.deepEqual([all.total, all.totalCapped], [9, false]);
    assert.equal((await sessions({ limit: '2', server: 'edge' })).total, 7);
    assert.equal((await sessions({ limit: '2', server: 'edge', flag: 'refused' })).total, 3);
    assert.equal((await sessions({ limit: '2', server: 'other', flag: 'refused' })).total, 0);
  });

  const deadLetters = async (q: Record<string, string>) =>
    ZDeadLetterListResponse.parse(
      await listDeadLetters(database().sql, parseDeadLetterQuery(parseQuery(ZDeadLetterQuery, params(q)), NOW)),
    );

  test('dead letters: the total follows the code filter; byCode and totalInRange cover every code', async () => {
    const all = await deadLetters({ limit: '3' });
    assert.equal(all.deadLetters.length, 3);
    assert.deepEqual([all.total, all.totalInRange], [11, 11]);
    const one = await deadLetters({ limit: '3', code: 'invalid_type' });
    assert.deepEqual([one.total, one.totalInRange], [5, 11]);
    assert.ok(one.deadLetters.every((l) => l.code === 'invalid_type'));
    // Every code stays offered, with its count, whatever is selected.
    assert.deepEqual(
      one.byCode.map((c) => [c.code, c.count]),
      [
        ['invalid_type', 5],
        ['invalid_field', 4],
        ['invalid_body', 2],
      ],
    );
    assert.equal((await deadLetters({ limit: '3', code: 'invalid_type,invalid_body' })).total, 7);
    const edge = await deadLetters({ limit: '3', server: 'edge', code: 'invalid_field' });
    assert.deepEqual([edge.total, edge.totalInRange, edge.deadLetters.length], [0, 7, 0]);
    // The time filter: only the other server's letters are in the last 7 minutes.
    assert.deepEqual((await deadLetters({ from: 'now-7m', code: 'invalid_field,invalid_type' })).total, 4);
  });

  const history = async (q: Record<string, string>) =>
    ZAlertHistoryResponse.parse(await alertHistory(database(), parseQuery(ZAlertHistoryQuery, params(q))));

  test('alert history: the total follows the rule and kind filters, not the limit', async () => {
    const all = await history({ limit: '4' });
    assert.equal(all.transitions.length, 4);
    assert.deepEqual([all.total, all.totalCapped], [11, false]);
    const firing = await history({ limit: '2', kind: 'firing' });
    assert.deepEqual([firing.total, firing.transitions.length], [3, 2]);
    assert.ok(firing.transitions.every((t) => t.kind === 'firing'));
    assert.equal((await history({ kind: 'pending,cleared' })).total, 5);
    assert.equal((await history({ rule: 'rule-b', kind: 'pending' })).total, 1);
    assert.equal((await history({ rule: 'rule-b', kind: 'firing' })).total, 0);
    assert.equal((await history({ rule: 'rule-a' })).total, 9);
  });

  test('alert history: an unknown kind is a 400 naming the parameter, not a silent empty list', () => {
    assert.throws(
      () => parseQuery(ZAlertHistoryQuery, params({ kind: 'exploded' })),
      (err: { status?: number; code?: string; message?: string }) => err.status === 400 && /kind/.test(err.message ?? ''),
    );
  });

  const probes = async (q: Record<string, string>) =>
    ZProbeHistoryResponse.parse(await probeHistory(database(), 'edge', parseQuery(ZProbeHistoryQuery, params(q))));

  test('probe history: the total follows the verdict filter, not the limit', async () => {
    const all = await probes({ limit: '3' });
    assert.deepEqual([all.total, all.totalCapped, all.runs.length], [8, false, 3]);
    const failed = await probes({ limit: '2', verdict: 'fail' });
    assert.deepEqual([failed.total, failed.runs.length], [3, 2]);
    assert.ok(failed.runs.every((r) => r.verdict === 'fail'));
    assert.equal((await probes({ verdict: 'fail,inconclusive' })).total, 4);
    assert.equal(ZProbeHistoryResponse.parse(await probeHistory(database(), 'other', { verdict: [], limit: 5 })).total, 0);
  });

  test('a total past the cap stops counting there and says so', async () => {
    const session = TABLE_SQL.session;
    assert.deepEqual(await countUpTo(database().sql, session, [], [], 5), { total: 5, totalCapped: true });
    assert.deepEqual(await countUpTo(database().sql, session, [], [], 9), { total: 9, totalCapped: false });
    assert.deepEqual(await countUpTo(database().sql, session, ['"server" = ?'], ['edge'], 6), { total: 6, totalCapped: true });
    assert.deepEqual(await countUpTo(database().sql, session, ['"server" = ?'], ['edge'], 7), { total: 7, totalCapped: false });
  });
});
