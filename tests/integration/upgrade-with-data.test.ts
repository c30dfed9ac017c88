// Upgrade with data (issue 28, docs/reliability.md#upgrade-with-data): a database an earlier
// release wrote through its own API (tests/fixtures/upgrade/<release>/, written by
// scripts/release/upgrade-fixture.ts) is restored, the CURRENT app is started on it (its start-up
// applies every migration added since), and the query API answers every request the release
// answered exactly as the release did; a new batch is then stored once, and an older app refuses the
// migrated database with a code. Nothing of the old release is checked out or built here: the
// fixture holds its databases and answers, so a clean clone without tags or history runs this.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readDatabaseConfig } from '@/lib/config/database-url';
import { openDb } from '@/lib/db/client';
import { runMigrations } from '@/lib/db/migrate/run-migrations';
import { MigrationError } from '@/lib/db/migrate/migration-error';
import { TEST_ADMIN_TOKEN, startAppServer } from '../support/app-server';
import { testProvider } from '../support/test-database';
import { call } from '../support/http';
import { postEvents } from '../support/post-events';
import { withoutReadClock } from '../support/api-answers';
import { FIXTURE_ENV, fixtureReleases, readFixture, restoreFixture } from '../support/upgrade-fixtures';
import { Q_RANGE, Q_T0 } from '../support/query-fixtures';

const provider = testProvider();
const MIGRATIONS = join(__dirname, '..', '..', 'prisma', provider, 'migrations');
const migrationNames = () =>
  readdirSync(MIGRATIONS, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();

/**
 * An answer with what neither release nor upgrade decides left out, besides what the read clock
 * decides everywhere (api-answers.ts: `now`, an ongoing deadlock's age, the idle time summing them):
 * - alert rules: `evaluatedAt` (when the leader last evaluated the rule, rewritten every interval by
 *   the upgraded app's evaluator) and `sessionsPath` (a link to the sessions of the rule's window
 *   ending now); the rule's definition, state and `since` are compared: they change only when the rule does;
 * - operators: the reading admin token's `lastUsedAt` (this test's own requests use it; every other
 *   operator's is compared).
 */
function comparable(path: string, body: unknown, release: Recorded): unknown {
  const route = path.split('?')[0];
  if (route === '/api/v1/alerts/rules')
    return withoutMeaningChanges(route, withoutReadClock(body, new Set(['evaluatedAt', 'sessionsPath'])), release);
  const out = withoutMeaningChanges(route, withoutReadClock(body, new Set()), release) as {
    operators?: { id: string; lastUsedAt?: unknown }[];
  };
  if (route === '/api/v1/operators' && out.operators)
    for (const o of out.operators) if (o.id === 'bootstrap-admin') o.lastUsedAt = 'the reading token';
  return out;
}

/** The first release whose `deadlocks_ongoing` measure counts the deadlocks ongoing now. */
const DEADLOCKS_ONGOING_NOW = 'v0.45.0';
/** The first release whose alert links name the measure's evidence (`&flag=…&synthetic=exclude`, 10cffd1). */
const ALERT_LINKS_FILTERED = 'v0.49.0';
/** The first release whose incident timeline marks the server's other alerts and probes as `context`, and links an alert to its rule. */
const TIMELINE_CONTEXT = 'v0.49.0';
/** Which release recorded the answers, and when. */
type Recorded = { release: string; generatedAt: string };
const before = (release: string, change: string) => release.localeCompare(change, 'en', { numeric: true }) < 0;

/**
 * What a deliberate change of meaning decides, left out of the answers of releases recorded before
 * it (and only that: any other difference still fails).
 * - `deadlocks_ongoing` counts the deadlocks ongoing at the evaluation moment (f50bc00), no longer
 *   only those that started inside the rule's window. Every fixture's ongoing deadlock (b-ongoing,
 *   begun on 29 Nov) was outside the window when the release evaluated it; the upgraded app counts it,
 *   so that rule's state, its history and (once its `for` has passed) the "Deadlocks on beta"
 *   incident it opens are the new meaning's, not the release's.
 * - An alert change's `sessionsPath` names the measure's evidence (`&flag=naive_resume&synthetic=exclude`,
 *   10cffd1): taken off again for releases before it, the rest of the link is compared.
 * - An incident's timeline entries say whether they are `context` (the server's other alerts and
 *   probes), a field older releases did not have, and an alert's entry links to its rule's history
 *   (`/alerts?rule=…`, not `/alerts`): every entry, its summary and its order are still compared.
 */
function withoutMeaningChanges(route: string, body: any, recorded: Recorded): unknown {
  if (!body || typeof body !== 'object') return body;
  if (before(recorded.release, ALERT_LINKS_FILTERED) && route === '/api/v1/alerts/history' && Array.isArray(body.transitions))
    for (const t of body.transitions) t.sessionsPath = String(t.sessionsPath).replace(/&flag=[a-z_]+&synthetic=exclude$/, '');
  if (before(recorded.release, TIMELINE_CONTEXT) && route.startsWith('/api/v1/incidents/') && Array.isArray(body.timeline))
    for (const e of body.timeline) {
      delete e.context;
      if (e.source === 'alert') e.path = '/alerts';
    }
  if (!before(recorded.release, DEADLOCKS_ONGOING_NOW)) return body;
  if (route === '/api/v1/alerts/rules')
    for (const rule of body.rules ?? [])
      if (rule.measure === 'deadlocks_ongoing') for (const k of ['status', 'servers', 'firingServers']) delete rule[k];
  if (route === '/api/v1/alerts/history' && Array.isArray(body.transitions)) {
    const kept = body.transitions.filter((t: any) => t.measure !== 'deadlocks_ongoing');
    body.total -= body.transitions.length - kept.length;
    body.transitions = kept;
  }
  if (route === '/api/v1/incidents' && Array.isArray(body.incidents)) {
    const dropped = body.incidents.filter((i: any) => i.kind === 'deadlock');
    for (const i of dropped) for (const k of [i.status, 'all']) if (body.totals?.[k] !== undefined) body.totals[k] -= 1;
    body.total -= dropped.length;
    body.incidents = body.incidents.filter((i: any) => i.kind !== 'deadlock');
  }
  // An incident's timeline shows the alerts on its server: none changed after the fixture was written
  // but that rule's (the history comparison above holds every other rule to it).
  if (route.startsWith('/api/v1/incidents/') && Array.isArray(body.timeline))
    body.timeline = body.timeline.filter((e: any) => e.source !== 'alert' || Date.parse(e.at) < Date.parse(recorded.generatedAt));
  return body;
}

/** A CSV export as rows of header → value (quoted fields may hold commas, quotes and newlines). */
function csvRows(text: string): Record<string, string>[] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const endField = () => {
    row.push(field);
    field = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted && c === '"' && text[i + 1] === '"') {
      field += '"';
      i++;
    } else if (c === '"') {
      quoted = !quoted;
    } else if (!quoted && c === ',') {
      endField();
    } else if (!quoted && c === '\n') {
      endField();
      rows.push(row);
      row = [];
    } else if (quoted || c !== '\r') {
      field += c;
    }
  }
  if (field !== '' || row.length) {
    endField();
    rows.push(row);
  }
  const [head, ...body] = rows;
  return body.map((r) => {
    const out: Record<string, string> = Object.fromEntries(head.map((h, i) => [h, r[i]]));
    // As in the JSON answers (api-answers.ts): an ongoing deadlock's duration is its age at read time.
    if (out.deadlockOngoing === 'true') out.deadlockDurationMs = 'age at read time';
    return out;
  });
}

/**
 * `current` cut down to the fields `recorded` has, and the paths of the fields it added. Fields added
 * since the release are allowed: the API grows by adding fields, which a client of /api/v1 ignores
 * (a probe target's stepTimeoutSeconds, for one). Everything the release answered must be there,
 * equal; an array keeps its length, so a row more or fewer still fails.
 */
function recordedShape(current: unknown, recorded: unknown, path: string, added: string[]): unknown {
  if (Array.isArray(current) && Array.isArray(recorded) && current.length === recorded.length)
    return current.map((c, i) => recordedShape(c, recorded[i], `${path}[${i}]`, added));
  if (!current || !recorded || typeof current !== 'object' || typeof recorded !== 'object' || Array.isArray(current)) return current;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(current)) {
    if (k in recorded) out[k] = recordedShape(v, (recorded as Record<string, unknown>)[k], `${path}.${k}`, added);
    else added.push(`${path}.${k}`.replace(/\[\d+\]/g, '[]'));
  }
  return out;
}

/** Start-up's migrations: those the release's database did not have, and the time each took by the bookkeeping's clocks. */
async function appliedSince(query: (sql: string) => Promise<any[]>, before: ReadonlySet<string>) {
  const rows = await query(`SELECT "migration_name" AS "name", "started_at" AS "s", "finished_at" AS "f" FROM "_prisma_migrations"`);
  const fresh = rows.filter((r) => !before.has(r.name)).sort((a, b) => a.name.localeCompare(b.name));
  const ms = fresh.reduce((sum, r) => sum + (new Date(r.f).getTime() - new Date(r.s).getTime()), 0);
  return { names: fresh.map((r) => r.name as string), ms };
}

const releases = fixtureReleases();
test('the upgrade fixtures are there: at least the release issue 28 started from', () => {
  assert.ok(releases.length >= 1, 'tests/fixtures/upgrade/<release>/ (scripts/release/upgrade-fixture.ts writes one per release)');
});

for (const release of releases) {
  test(`${provider}: a database written by ${release} migrates at start-up and answers as ${release} did; ingest goes on`, async (ctx) => {
    const fixture = readFixture(release, provider);
    const restored = await restoreFixture(release, provider);
    const started = performance.now();
    const app = await startAppServer({ databaseUrl: restored.url, env: FIXTURE_ENV }).catch(async (err: unknown) => {
      await restored.drop();
      throw err;
    });
    const startMs = Math.round(performance.now() - started);
    // Stopped and dropped when this release's case ends, not the file's: an app per release left running
    // (each evaluating alerts every 500 ms) cost more CPU than the cases themselves once there were ten.
    ctx.after(async () => {
      await app.stop();
      await restored.drop();
    });

    const applied = await app.query<{ name: string; s: string }>(
      `SELECT "migration_name" AS "name", "started_at" AS "s" FROM "_prisma_migrations" WHERE "finished_at" IS NOT NULL`,
    );
    assert.deepEqual(applied.map((r) => r.name).sort(), migrationNames(), 'every migration of this tree is applied, once');
    const generatedAt = Date.parse(fixture.generatedAt);
    const before = new Set(applied.filter((r) => new Date(r.s).getTime() < generatedAt).map((r) => r.name));
    const since = await appliedSince((sql) => app.query(sql), before);

    const added: string[] = [];
    const differ: string[] = [];
    for (const want of fixture.answers) {
      const r = await call(app.url, want.path, { token: TEST_ADMIN_TOKEN });
      const csv = want.path.includes('format=csv');
      const body = csv ? csvRows(r.text) : comparable(want.path, r.body, fixture);
      const recorded = csv ? csvRows(want.body as string) : comparable(want.path, want.body, fixture);
      try {
        assert.equal(r.status, want.status, r.text.slice(0, 300));
        assert.deepEqual(recordedShape(body, recorded, want.path.split('?')[0], added), recorded);
      } catch (err) {
        differ.push(`${want.path}: ${err instanceof Error ? err.message.slice(0, 2000) : err}`);
      }
    }
    assert.deepEqual(differ, [], `every answer as ${release} gave it`);

    // Ingest after the upgrade: a new session on a server the release registered (its secret is in the
    // fixture), sent twice with one webhook-id as a retrying sender would: stored and counted once.
    const t = Date.now() - 60_000;
    const at = (ms: number) => new Date(t + ms).toISOString();
    const token = `after-upgrade-${provider}`;
    const events = [
      { id: `${token}.0`, token, type: 'session.opened', at: at(0), data: {} },
      { id: `${token}.1`, token, type: 'upgrade.accepted', at: at(100), data: { eventId: 1 } },
      { id: `${token}.2`, token, type: 'upgrade.completed', at: at(200), data: {} },
    ];
    const first = await postEvents(app.url, 'alpha', fixture.secrets.alpha, events, { msgId: `msg_${token}` });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const again = await postEvents(app.url, 'alpha', fixture.secrets.alpha, events, { msgId: `msg_${token}` });
    assert.equal(again.status, 200, JSON.stringify(again.body));
    const range = `from=${encodeURIComponent(at(-60_000))}&to=${encodeURIComponent(at(120_000))}&server=alpha`;
    const stats = await call(app.url, `/api/v1/stats?${range}`, { token: TEST_ADMIN_TOKEN });
    assert.equal(stats.status, 200, stats.text);
    assert.equal(stats.body.sessions, 1, 'the new session counted once');
    assert.equal(stats.body.events, 3, 'its events stored once');
    // An event the release stored, sent again a day earlier: still a duplicate (on PostgreSQL the
    // identity of the release's events was backfilled into "EventKey" by 20261205010000_event_key).
    const [stored] = await app.query<{ eventId: string; token: string; type: string; at: number; seq: number | null; data: string }>(
      `SELECT "eventId", "token", "type", "at", "seq", "data" FROM "Event" WHERE "server" = 'alpha' ORDER BY "at", "eventId" LIMIT 1`,
    );
    assert.ok(stored, 'the release stored events of alpha');
    const resend = {
      id: stored.eventId,
      token: stored.token,
      type: stored.type,
      at: new Date(Number(stored.at) - 86_400_000).toISOString(),
      data: JSON.parse(stored.data),
      ...(stored.seq === null ? {} : { seq: Number(stored.seq) }),
    };
    const resent = await postEvents(app.url, 'alpha', fixture.secrets.alpha, [resend]);
    assert.equal(resent.status, 200, JSON.stringify(resent.body));
    assert.deepEqual([resent.body.accepted, resent.body.duplicates], [0, 1], 'a stored event resent with another time');
    const old = await call(app.url, `/api/v1/stats?from=${encodeURIComponent(Q_RANGE.from)}&to=${encodeURIComponent(Q_RANGE.to)}`, {
      token: TEST_ADMIN_TOKEN,
    });
    assert.equal(old.body.sessions, (fixture.answers[0].body as { sessions: number }).sessions, 'the old window is untouched');
    assert.ok(Q_T0 < t);

    console.log(
      `${provider} ${release} (${fixture.commit.slice(0, 7)}): restore ${restored.restoreMs} ms, start ${startMs} ms, ` +
        `${since.names.length} migration(s) applied in ${since.ms} ms (${since.names.join(', ') || 'none'}), ` +
        `${fixture.answers.length} answers equal; fields added since: ${[...new Set(added)].join(', ') || 'none'}`,
    );
  });
}

test(`${provider}: a database migrated by a newer version is refused at start-up with database_newer_than_app`, async (t) => {
  const release = releases.at(-1)!;
  const restored = await restoreFixture(release, provider);
  t.after(() => restored.drop());
  const config = readDatabaseConfig({ DATABASE_URL: restored.url });
  await runMigrations(config);
  // A migration this tree does not have, recorded as applied: what a newer version leaves behind.
  const db = openDb(config);
  const now = new Date().toISOString();
  await db.sql.execute(
    `INSERT INTO "_prisma_migrations" ("id", "checksum", "migration_name", "started_at", "finished_at", "applied_steps_count")
     VALUES ('00000000-0000-4000-8000-000000000001', 'x', '29991231000000_from_a_newer_version', ?, ?, 1)`,
    [now, now],
  );
  await db.close();
  await assert.rejects(runMigrations(config), (err: unknown) => err instanceof MigrationError && err.code === 'database_newer_than_app');
  await assert.rejects(startAppServer({ databaseUrl: restored.url, env: FIXTURE_ENV }), (err: unknown) => {
    const log = err instanceof Error ? err.message : String(err);
    return /database_newer_than_app/.test(log) && /29991231000000_from_a_newer_version/.test(log);
  });
});
