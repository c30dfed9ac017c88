// Several instances on one PostgreSQL database whose host clocks disagree by more than the incident
// sweep's overlap (60 s). The leader sweeps flagged sessions by "Session"."updatedAt" from a cursor;
// with the cursor on the leader's clock and the stamps on each writer's, a writer whose clock was
// behind the leader's stored its sessions behind the cursor, and their naive resumes never became
// evidence: an incident (opened by the alert, from the rollups) that listed no session, silently.
// Two pairs of instances, one clock two minutes off in each (inside the signature's five-minute
// tolerance, so the batch is taken): the writer's clock behind, and the leader's clock ahead of
// the database's. Either way the session must join its incident.
// SQLite is one instance (one clock): the file is skipped there, with the reason shown.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSecret } from '@/lib/contract/server-secret';
import { startAppServer, TEST_ADMIN_TOKEN, type AppServer } from '../support/app-server';
import { api, postNaiveResume, until } from '../support/alert-fixtures';
import { createTestDatabase, testProvider, type TestDatabase } from '../support/test-database';
import { findFaketimeLibrary } from '../../scripts/test-prerequisites.mjs';

const SKIP =
  testProvider() !== 'postgresql' &&
  'several instances share a database only on PostgreSQL (SQLite is one instance on one clock): runs in the PostgreSQL pass';
/** How far one instance's clock is off: past the sweep's 60 s overlap, inside the signature's 300 s. */
const OFF_S = 120;
const SECRET = generateSecret();
const ENV = {
  DOORWATCH_SERVERS: ['lead', 'other'].map((s) => `${s}=${SECRET}`).join(','),
  DOORWATCH_ALERT_INTERVAL_MS: '300',
};

const dir = mkdtempSync(join(tmpdir(), 'doorwatch-skew-'));
const cleanups: (() => Promise<void>)[] = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
  rmSync(dir, { recursive: true, force: true });
});

/** Whether `app` leads the alert job (which runs the incident sweep), from its doorwatch_leader gauge. */
async function leadsAlerts(app: AppServer): Promise<boolean> {
  const res = await fetch(`${app.url}/metrics`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
  return /^doorwatch_leader\{job="alerts"\} 1$/m.test(await res.text());
}

/** An instance whose wall clock is `offsetS` off the host's (libfaketime; the monotonic clock left alone). */
function clockEnv(name: string, offsetS: number): Record<string, string> {
  if (offsetS === 0) return {};
  const library = findFaketimeLibrary();
  assert.ok(library, 'libfaketime is installed by npm test (scripts/test-prerequisites.mjs)');
  const file = join(dir, name);
  writeFileSync(file, `${offsetS > 0 ? '+' : ''}${offsetS}\n`);
  return { LD_PRELOAD: library, FAKETIME_TIMESTAMP_FILE: file, FAKETIME_DONT_FAKE_MONOTONIC: '1' };
}

/** The app's clock minus the test's, in seconds, from its HTTP Date header. */
const offsetOf = async (app: AppServer) =>
  (Date.parse((await fetch(`${app.url}/api/health`)).headers.get('date') ?? '') - Date.now()) / 1000;

async function checkPair(name: string, leaderOffsetS: number, otherOffsetS: number): Promise<void> {
  const db: TestDatabase = await createTestDatabase();
  cleanups.push(() => db.drop());
  const leader = await startAppServer({ databaseUrl: db.url, env: { ...ENV, ...clockEnv(`${name}-leader`, leaderOffsetS) } });
  cleanups.push(() => leader.stop());
  await until('the first instance to lead the alert job', () => leadsAlerts(leader), Boolean);
  const other = await startAppServer({ databaseUrl: db.url, env: { ...ENV, ...clockEnv(`${name}-other`, otherOffsetS) } });
  cleanups.push(() => other.stop());
  const skew = (await offsetOf(leader)) - (await offsetOf(other));
  assert.ok(
    Math.abs(skew - (leaderOffsetS - otherOffsetS)) < 5,
    `the leader's clock is ${leaderOffsetS - otherOffsetS} s off the other's (Date headers: ${skew} s)`,
  );
  assert.equal(await leadsAlerts(other), false, 'the second instance does not sweep');

  const incidentsOf = async (server: string) => (await api(leader, `/api/v1/incidents?server=${server}`)).body.incidents as any[];
  // The leader's own session first: once it is in its incident, a pass has moved the cursor to the leader's now.
  await postNaiveResume(leader, 'lead', SECRET, `tok-${name}-lead`);
  await until(
    "the leader's own session in its incident",
    () => incidentsOf('lead'),
    (l) => l[0]?.sessionCount === 1,
  );
  // An alert on naive resumes may open the incident first (from the rollups, by event time): what the
  // sweep adds, and what went missing, is the session itself as evidence.
  await postNaiveResume(other, 'other', SECRET, `tok-${name}-other`);
  const found = await until(
    'the session stored by the other instance, in its incident',
    () => incidentsOf('other'),
    (l) => l[0]?.sessionCount === 1,
  );
  assert.equal(found.length, 1);
  assert.equal(found[0].kind, 'naive_resume');
}

test(`a naive resume stored by an instance whose clock is ${OFF_S} s behind the leader's joins its incident`, { skip: SKIP }, () =>
  checkPair('behind', 0, -OFF_S),
);

test(`a naive resume is swept when the leader's clock is ${OFF_S} s ahead of the database's and the other instance's`, { skip: SKIP }, () =>
  checkPair('ahead', OFF_S, 0),
);
