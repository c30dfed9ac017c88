// The oracle of the fault suite: what the database and the stats endpoint must hold after
// Doorwatch was given a set of events, computed from the senders' own record with the pure
// domain functions (`summarize`, the row mapping, the rollup contributions) and nothing of the
// write path. Arrival order, duplicates, crashes and outages must not change the answer.
import assert from 'node:assert/strict';
import type { DoorwatchEvent } from '@/lib/contract/event';
import { timestampMs } from '@/lib/contract/timestamp';
import { summarize, type SuccessorSession } from '@/lib/boundary/summarize';
import { encodeFoldState, foldTimeline } from '@/lib/boundary/fold-state';
import {
  ROLLUP_COLUMNS,
  addContributions,
  minuteOf,
  pruneZeroCells,
  sessionContributions,
  type RollupDelta,
} from '@/lib/metrics/rollup-contributions';
import { sessionAnchors, toSessionRow, type SessionRow } from '@/lib/store/session-row';
import type { SentEvent } from './random-timelines';
import { summarizeResumption } from '@/lib/boundary/resumption-health';
import { assertHistogramExtremes } from './histogram-extremes-oracle';

type Query = <T = any>(text: string, params?: readonly unknown[]) => Promise<T[]>;

export interface ExpectedState {
  events: number;
  /** Session rows without `updatedAt` (the write clock), sorted by server, token. */
  sessions: Omit<SessionRow, 'updatedAt'>[];
  /** Non-zero rollup cells as `server|minute` → column → value. */
  rollups: Map<string, Record<string, number>>;
}

const key = (server: string, token: string) => `${server}\u0000${token}`;

/** Every distinct (server, event id) once: the record may hold retried copies. */
function uniqueEvents(record: readonly SentEvent[]): SentEvent[] {
  const seen = new Map<string, SentEvent>();
  for (const r of record) if (!seen.has(key(r.server, r.event.id))) seen.set(key(r.server, r.event.id), r);
  return [...seen.values()];
}

export function expectedState(record: readonly SentEvent[]): ExpectedState {
  const events = uniqueEvents(record);
  const timelines = new Map<string, { server: string; token: string; events: DoorwatchEvent[] }>();
  for (const { server, event } of events) {
    const k = key(server, event.token);
    let t = timelines.get(k);
    if (!t) timelines.set(k, (t = { server, token: event.token, events: [] }));
    t.events.push(event);
  }
  // The successor of token P: the earliest session (by its opening, then server/token) naming P.
  const successors = new Map<string, SuccessorSession & { ms: number }>();
  for (const t of timelines.values()) {
    const s = summarize(t.events, 0, { server: t.server });
    if (s.previousToken === null || s.openedAt === null) continue;
    const ms = timestampMs(s.openedAt);
    const cur = successors.get(s.previousToken);
    const name = `${t.server}/${t.token}`;
    if (!cur || ms < cur.ms || (ms === cur.ms && name < `${cur.server}/${cur.token}`)) {
      successors.set(s.previousToken, { server: t.server, token: t.token, openedAt: s.openedAt, ms });
    }
  }
  const delta: RollupDelta = new Map();
  const sessions: Omit<SessionRow, 'updatedAt'>[] = [];
  for (const t of timelines.values()) {
    const succ = successors.get(t.token);
    const summary = summarize(t.events, Date.now(), {
      server: t.server,
      successor: succ ? { server: succ.server, token: succ.token, openedAt: succ.openedAt } : null,
    });
    const { updatedAt, ...row } = toSessionRow(
      t.server,
      summary,
      summarizeResumption(t.events),
      Math.min(...t.events.map((e) => timestampMs(e.at))),
      0,
      // The stored fold must be the fold of the whole timeline, however it was delivered (issue 26).
      encodeFoldState(foldTimeline(t.events)!),
    );
    sessions.push(row);
    addContributions(delta, t.server, sessionContributions(sessionAnchors({ ...row, updatedAt })), 1);
  }
  for (const { server, event } of events) {
    const minute = minuteOf(timestampMs(event.at));
    addContributions(delta, server, [{ minute, column: 'events', value: 1 }], 1);
    if (event.type === 'stream.dropped') addContributions(delta, server, [{ minute, column: 'drops', value: 1 }], 1);
  }
  pruneZeroCells(delta);
  const rollups = new Map<string, Record<string, number>>();
  for (const [k, cell] of delta) rollups.set(k, cell.values as Record<string, number>);
  sessions.sort((a, b) => (a.server === b.server ? (a.token < b.token ? -1 : 1) : a.server < b.server ? -1 : 1));
  return { events: events.length, sessions, rollups };
}

/** The stored counterpart of ExpectedState (same shapes), read through the test's inspection query. */
export async function storedState(query: Query, tokenPrefix: string): Promise<ExpectedState> {
  const [{ n }] = await query<{ n: number }>('SELECT COUNT(*) AS "n" FROM "Event" WHERE substr("token", 1, ?) = ?', [
    tokenPrefix.length,
    tokenPrefix,
  ]);
  const rows = await query<SessionRow>('SELECT * FROM "Session" WHERE substr("token", 1, ?) = ? ORDER BY "server", "token"', [
    tokenPrefix.length,
    tokenPrefix,
  ]);
  const sessions = rows.map(({ updatedAt, ...rest }) => rest);
  const rollups = new Map<string, Record<string, number>>();
  for (const r of await query<Record<string, number | string>>('SELECT * FROM "Rollup"')) {
    const values: Record<string, number> = {};
    for (const c of ROLLUP_COLUMNS) if (Number(r[c]) !== 0) values[c] = Number(r[c]);
    if (Object.keys(values).length > 0) rollups.set(`${r.server}|${Number(r.minute)}`, values);
  }
  // The latency histograms ride in the same cells, keyed as in a rollup delta (h:<metric>:<bucket>).
  for (const r of await query<Record<string, number | string>>('SELECT * FROM "LatencyHistogram" WHERE "count" <> 0')) {
    const k = `${r.server}|${Number(r.minute)}`;
    rollups.set(k, { ...rollups.get(k), [`h:${r.metric}:${Number(r.bucket)}`]: Number(r.count) });
  }
  // The quarter-hour cells are the sums of their minutes (lib/store/rollups.ts).
  const quarters = new Map<string, Record<string, number>>();
  for (const [k, values] of rollups) {
    const [server, minute] = k.split('|');
    const qk = `${server}|${Math.floor(Number(minute) / 900_000) * 900_000}`;
    const q = quarters.get(qk) ?? {};
    for (const c of ROLLUP_COLUMNS) if (values[c]) q[c] = (q[c] ?? 0) + values[c];
    if (Object.keys(q).length > 0) quarters.set(qk, q);
  }
  const storedQuarters = new Map<string, Record<string, number>>();
  for (const r of await query<Record<string, number | string>>('SELECT * FROM "RollupQuarter"')) {
    const values: Record<string, number> = {};
    for (const c of ROLLUP_COLUMNS) if (Number(r[c]) !== 0) values[c] = Number(r[c]);
    if (Object.keys(values).length > 0) storedQuarters.set(`${r.server}|${Number(r.minute)}`, values);
  }
  assert.deepEqual(storedQuarters, quarters, 'RollupQuarter holds the sums of its Rollup minutes');
  // The all-server quarter histograms are the sums of the minute histograms over servers and minutes.
  const histogramQuarters = new Map<string, number>();
  for (const [k, values] of rollups) {
    const quarter = Math.floor(Number(k.split('|')[1]) / 900_000) * 900_000;
    for (const [key, v] of Object.entries(values)) {
      if (!key.startsWith('h:')) continue;
      const hk = `${quarter}|${key}`;
      histogramQuarters.set(hk, (histogramQuarters.get(hk) ?? 0) + v);
    }
  }
  for (const [k, v] of histogramQuarters) if (v === 0) histogramQuarters.delete(k);
  const storedHistogramQuarters = new Map<string, number>();
  for (const r of await query<Record<string, number | string>>('SELECT * FROM "LatencyHistogramQuarter" WHERE "count" <> 0')) {
    storedHistogramQuarters.set(`${Number(r.minute)}|h:${r.metric}:${Number(r.bucket)}`, Number(r.count));
  }
  assert.deepEqual(storedHistogramQuarters, histogramQuarters, 'LatencyHistogramQuarter holds the sums of its LatencyHistogram minutes');
  return { events: Number(n), sessions, rollups };
}

/** The stats endpoint's counters over the whole window, from the expected rows (deadlocks: ended + ongoing by now). */
export function expectedStatsCounts(state: ExpectedState) {
  const sum = (column: string) => [...state.rollups.values()].reduce((s, v) => s + (v[column] ?? 0), 0);
  const ongoing = state.sessions.filter((s) => s.deadlockStartedAt !== null && s.deadlockEndedAt === null).length;
  return {
    events: sum('events'),
    sessions: sum('sessions'),
    drops: sum('drops'),
    boundary: sum('boundary'),
    refused: sum('refused'),
    naiveResumes: sum('naiveResumes'),
    dualNegotiations: sum('dualNegotiations'),
    burnedTokenReuses: sum('burnedReuses'),
    deadlocks: sum('deadlocks') + ongoing,
    renegotiations: sum('renegotiations'),
  };
}

/** The same counters as the stats endpoint answers them over [from, to). */
export async function statsCounts(baseUrl: string, token: string, fromMs: number, toMs: number) {
  const res = await fetch(`${baseUrl}/api/v1/stats?from=${new Date(fromMs).toISOString()}&to=${new Date(toMs).toISOString()}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  assert.equal(res.status, 200, await res.clone().text());
  const s = await res.json();
  return {
    events: s.events,
    sessions: s.sessions,
    drops: s.drops,
    boundary: s.boundary,
    refused: s.refused,
    naiveResumes: s.naiveResumes,
    dualNegotiations: s.dualNegotiations,
    burnedTokenReuses: s.burnedTokenReuses,
    deadlocks: s.deadlocks.total,
    renegotiations: s.renegotiations.count,
  };
}

/**
 * Asserts the database holds exactly the expected state (every event once, every session row
 * equal to its `summarize` of the record, every rollup cell the sum of contributions) and that
 * the stats endpoint answers the sums. `tokenPrefix` limits the events and sessions compared
 * and assumes the test owns the database (rollups are compared whole).
 */
export async function assertStoredMatches(
  query: Query,
  record: readonly SentEvent[],
  tokenPrefix: string,
  stats?: { url: string; token: string; fromMs: number; toMs: number },
) {
  const want = expectedState(record);
  const got = await storedState(query, tokenPrefix);
  assert.equal(got.events, want.events, 'every event stored exactly once');
  assert.equal(got.sessions.length, want.sessions.length, 'one session row per token');
  for (let i = 0; i < want.sessions.length; i++) assert.deepEqual(got.sessions[i], want.sessions[i], `session ${want.sessions[i].token}`);
  assert.deepEqual(
    Object.fromEntries([...got.rollups].sort()),
    Object.fromEntries([...want.rollups].sort()),
    'rollups are the sum of contributions',
  );
  await assertHistogramExtremes(query);
  if (stats)
    assert.deepEqual(
      await statsCounts(stats.url, stats.token, stats.fromMs, stats.toMs),
      expectedStatsCounts(want),
      'stats equal the sums',
    );
  return want;
}
