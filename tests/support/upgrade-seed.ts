// The data an upgrade fixture holds (tests/fixtures/upgrade/<release>/), written through a release's
// own API, and the query API answers recorded about it. The generator
// (scripts/release/upgrade-fixture.ts) runs this against the OLD release's app; the upgrade test
// (tests/integration/upgrade-with-data.test.ts) replays the recorded requests against the CURRENT
// app on the migrated database. Only API features every fixture's release has are used here (a
// field added later must not be sent: the old release would refuse it or store a default).
import assert from 'node:assert/strict';
import { call } from './http';
import { postSigned } from './post-events';
import { Q_ALL_TOKENS, Q_BATCHES, Q_RANGE, Q_T0 } from './query-fixtures';
import { withoutReadClock } from './api-answers';
import { until } from './alert-fixtures';
import { KIND_OF_MEASURE } from '@/lib/incidents/incident-kind';
import type { TAlertMeasure } from '@/lib/contract/api/alerts';

export interface RecordedAnswer {
  path: string;
  status: number;
  body: unknown;
}

export interface UpgradeFixture {
  /** The release tag (or name) the data was written by, and its commit. */
  release: string;
  commit: string;
  generatedAt: string;
  /** The servers' webhook secrets (test data), so a test can ingest after the upgrade. */
  secrets: Record<string, string>;
  answers: RecordedAnswer[];
}

/** Versions reported in the batches' envelope (the versions API and stats split=version read them). */
const VERSIONS: Record<string, string> = { alpha: 'v1.0.0', beta: 'v1.1.0', gamma: 'v2.0.0' };
const SERVER_OF = new Map(Q_BATCHES.flatMap((b) => b.events.map((e) => [e.token, b.server] as const)));

async function ok(url: string, token: string, path: string, method: string, body?: unknown, status = [200, 201, 204]) {
  const r = await call(url, path, { method, token, body });
  assert.ok(status.includes(r.status), `${method} ${path}: ${r.status} ${r.text.slice(0, 300)}`);
  return r.body;
}

/**
 * Writes the fixture's data through the API of the app at `url` (admin `token`): three servers, the
 * query fixtures' sessions (refused, renegotiated, naive resume with its deadlock, an ongoing
 * deadlock, dual negotiation, a burned token negotiated again) signed per server with a version,
 * one invalid event (a dead letter), a probe target, an alert rule, an expired silence, an
 * annotation, a viewer operator, and the incidents the leader opens from the flagged sessions, one
 * acknowledged and one resolved with a note. The app must run with a short alert interval.
 */
export async function seedThroughApi(url: string, token: string): Promise<Record<string, string>> {
  const secrets: Record<string, string> = {};
  for (const name of Object.keys(VERSIONS)) secrets[name] = (await ok(url, token, '/api/v1/admin/servers', 'POST', { name })).secret;
  for (const batch of Q_BATCHES) {
    const payload = JSON.stringify({ version: VERSIONS[batch.server], events: batch.events });
    const r = await postSigned(url, batch.server, secrets[batch.server], payload, { msgId: `msg_upgrade_${batch.server}` });
    assert.equal(r.status, 200, JSON.stringify(r.body));
  }
  const invalid = { id: 'a-bad.0', token: 'a-bad', type: 'session.exploded', at: new Date(Q_T0 + 5_000).toISOString(), data: {} };
  const bad = await postSigned(url, 'alpha', secrets.alpha, JSON.stringify({ events: [invalid] }), { msgId: 'msg_upgrade_bad' });
  assert.equal(bad.status, 207, JSON.stringify(bad.body));

  await ok(url, token, '/api/v1/admin/servers/alpha/probe', 'PUT', {
    url: 'http://127.0.0.1:9/mcp',
    enabled: false,
    intervalSeconds: 3600,
  });
  await ok(url, token, '/api/v1/alerts/rules', 'POST', {
    name: 'upgrade fixture: dual negotiations',
    measure: 'dual_negotiations',
    comparison: 'gt',
    threshold: 5,
    windowSeconds: 300,
    forSeconds: 60,
  });
  const silence = await ok(url, token, '/api/v1/silences', 'POST', { server: 'gamma', reason: 'upgrade fixture', durationSeconds: 3600 });
  // Expired at once: an active silence turns 'expired' by the read clock (at most 90 days later).
  await ok(url, token, `/api/v1/silences/${silence.silence.id}`, 'DELETE');
  await ok(url, token, '/api/v1/annotations', 'POST', {
    time: Q_T0 + 30_000,
    text: 'deployed v1.1.0 to beta',
    tags: ['deploy', 'v1.1.0'],
    server: 'beta',
  });
  await ok(url, token, '/api/v1/operators', 'POST', { name: 'upgrade-viewer', role: 'viewer' });

  // The rule created above has no per-server state until the leader's next pass; the migrated app
  // evaluates at start-up, so an answer recorded before that pass never compares equal (v0.36.0's
  // first write of its fixture recorded it so on SQLite). A pending rule turns firing once its `for`
  // has passed, by the clock alone, and a firing rule opens or joins its incident: recorded before
  // that, the answers hold a state the release itself left moments later (v0.45.0's first write
  // recorded its ongoing-deadlock rule pending; the upgraded app, started later, had it firing).
  type Rules = { rules: { measure: TAlertMeasure; servers?: { server: string; state: string }[] }[] };
  const rules = await until(
    'every alert rule evaluated for every server, none pending',
    async () => (await ok(url, token, '/api/v1/alerts/rules', 'GET')) as Rules,
    (v) => v.rules.every((r) => (r.servers?.length ?? 0) >= Object.keys(VERSIONS).length && r.servers!.every((s) => s.state !== 'pending')),
    90_000,
  );
  const firing = rules.rules.flatMap((r) =>
    (r.servers ?? []).filter((s) => s.state === 'firing').map((s) => ({ kind: KIND_OF_MEASURE[r.measure], server: s.server })),
  );
  // The leader's sweep opens one incident per server and kind of the flagged sessions (beta: naive
  // resume and dual negotiation; gamma: the burned token negotiated again), and one of each firing
  // rule's kind on its server.
  const list = await until(
    'the incidents of the flagged sessions and of the firing rules',
    async () =>
      (await ok(url, token, '/api/v1/incidents?limit=50', 'GET')) as { incidents: { id: string; server: string; kind: string }[] },
    (v) => v.incidents.length >= 3 && firing.every((f) => v.incidents.some((i) => i.kind === f.kind && i.server === f.server)),
    60_000,
  );
  // The sweep links an incident's sessions on its passes after opening it (a deadlock incident opened
  // by its rule has none at first): settled once two reads several leader passes apart agree.
  let previous = JSON.stringify(withoutReadClock(list, new Set()));
  await until(
    'the incidents settled (two reads 2 s apart agree)',
    async () => {
      await new Promise((r) => setTimeout(r, 2_000));
      const read = JSON.stringify(withoutReadClock(await ok(url, token, '/api/v1/incidents?limit=50', 'GET'), new Set()));
      const same = read === previous;
      previous = read;
      return same;
    },
    (same) => same,
    60_000,
  );
  // From the settled read: the first one may lack an incident the sweep opened just after it.
  const settled = JSON.parse(previous) as { incidents: { id: string }[] };
  const ids = settled.incidents.map((i) => i.id).sort();
  await ok(url, token, `/api/v1/incidents/${ids[0]}/acknowledge`, 'POST', {});
  await ok(url, token, `/api/v1/incidents/${ids[1]}/notes`, 'POST', { text: 'seen in the upgrade fixture' });
  await ok(url, token, `/api/v1/incidents/${ids[1]}/resolve`, 'POST', {});
  return secrets;
}

/** The GET requests whose answers a fixture records: fixed windows only (no default relative to now). */
export async function recordedPaths(url: string, token: string): Promise<string[]> {
  const range = `from=${encodeURIComponent(Q_RANGE.from)}&to=${encodeURIComponent(Q_RANGE.to)}`;
  const incidents = (await ok(url, token, '/api/v1/incidents?limit=50', 'GET')) as { incidents: { id: string }[] };
  const letters = (await ok(url, token, '/api/v1/admin/dead-letters', 'GET')) as { deadLetters?: { id: string }[] };
  return [
    `/api/v1/stats?${range}`,
    `/api/v1/stats?${range}&server=beta`,
    `/api/v1/stats?${range}&split=version`,
    `/api/v1/sessions?limit=20&${range}`,
    `/api/v1/sessions?limit=3&${range}&server=beta`,
    `/api/v1/sessions/export?format=json&${range}`,
    `/api/v1/sessions/export?format=csv&${range}`,
    ...Q_ALL_TOKENS.map((t) => `/api/v1/servers/${SERVER_OF.get(t)}/sessions/${t}`),
    `/api/v1/servers?${range}`,
    '/api/v1/admin/servers',
    ...Object.keys(VERSIONS).map((s) => `/api/v1/servers/${s}/versions`),
    '/api/v1/servers/alpha/probes',
    '/api/v1/alerts/rules',
    '/api/v1/alerts/history',
    '/api/v1/silences',
    `/api/v1/annotations?${range}`,
    '/api/v1/incidents?limit=50',
    ...incidents.incidents.map((i) => `/api/v1/incidents/${i.id}`),
    '/api/v1/operators',
    '/api/v1/admin/dead-letters',
    ...(letters.deadLetters ?? []).map((d) => `/api/v1/admin/dead-letters/${d.id}`),
  ];
}

/** Each path's status and body, with what the read clock decides left out (api-answers.ts). */
export async function recordAnswers(url: string, token: string, paths: readonly string[]): Promise<RecordedAnswer[]> {
  const out: RecordedAnswer[] = [];
  for (const path of paths) {
    const r = await call(url, path, { token });
    out.push({ path, status: r.status, body: withoutReadClock(r.body, new Set()) });
  }
  return out;
}
