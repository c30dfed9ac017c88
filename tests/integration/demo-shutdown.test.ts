// npm test: sqlite only (the demo always runs on its embedded SQLite default, so a PostgreSQL pass would repeat this run)
// `npm run demo` as a newcomer runs it, on a temp database and port: it says what it builds, seals
// its own secrets (no "stored unencrypted" warning), and Ctrl+C (SIGINT to the terminal's whole
// process group, as a terminal sends it) ends the demo, Doorwatch and the simulated fleet: every
// process of the group exits, and Doorwatch's server (its own group, so the demo stops the fleet
// first) too. A client left waiting on a naive resume when Ctrl+C comes has its session ended in the
// data: Doorwatch stopped first, it stayed an unended deadlock, stuck on every later run. The time it
// takes is printed (the target is 5 s), not asserted beyond a generous bound that only catches a hang.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { freePort } from '@/scripts/launch/free-port';

const root = join(__dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'doorwatch-demo-'));
let demo: ChildProcess | null = null;
let port = 0;

/**
 * Alive processes (zombies count as gone: they have exited, only their parent has not read it) that
 * `keep` picks by their /proc/<pid>/stat fields after the command name (state ppid pgrp …)
 * and a reader of their other /proc files.
 */
function liveProcesses(keep: (fields: string[], read: (file: string) => string) => boolean): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // pid (comm) state ppid pgrp …: comm may hold spaces and parentheses, so parse after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] !== 'Z' && keep(fields, (file) => readFileSync(`/proc/${name}/${file}`, 'utf8'))) out.push(Number(name));
    } catch {
      // exited while we looked, or not ours to read
    }
  }
  return out;
}

/** Processes alive in process group `pgid`. */
const groupMembers = (pgid: number) => liveProcesses((fields) => Number(fields[2]) === pgid);

/** Alive processes running Doorwatch's server (scripts/start.mjs) on `port`, in any group. */
const doorwatchServers = (port: number) =>
  liveProcesses((_, read) => read('cmdline').includes('scripts/start.mjs') && read('environ').split('\0').includes(`PORT=${port}`));

/** Sessions whose client was left waiting on a naive resume and whose end the data does not hold. */
function unendedDeadlocks(file: string): number {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return (
      db.prepare('SELECT COUNT(*) AS n FROM "Session" WHERE "deadlockStartedAt" IS NOT NULL AND "deadlockEndedAt" IS NULL').get() as {
        n: number;
      }
    ).n;
  } finally {
    db.close();
  }
}

after(() => {
  // Only if the test failed half-way: nothing of this demo's group outlives the test.
  if (demo?.pid && groupMembers(demo.pid).length) process.kill(-demo.pid, 'SIGKILL');
  // Doorwatch's server is in a group of its own: a demo killed outright cannot stop it.
  for (const pid of port ? doorwatchServers(port) : []) process.kill(pid, 'SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

test('the demo seals its secrets, says what it does, and Ctrl+C ends Doorwatch and the fleet', { timeout: 240_000 }, async () => {
  port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), DATABASE_URL: `file:${join(dir, 'doorwatch.db')}` };
  for (const k of ['DOORWATCH_ADMIN_TOKEN', 'DOORWATCH_SECRET_KEY', 'DOORWATCH_SERVERS', 'DATABASE_READ_URL']) delete env[k];
  // Its own process group, like a terminal's foreground job: Ctrl+C signals every process in it.
  // As `npm run demo` runs it (package.json), without npm.
  demo = spawn(process.execPath, ['--import', 'tsx', 'scripts/demo.ts'], { cwd: root, env, detached: true, stdio: 'pipe' });
  const pgid = demo.pid!;
  let output = '';
  demo.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  demo.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => demo!.once('exit', (code) => resolve(code)));

  // Up: the banner names this port, then the fleet's traffic reaches Doorwatch.
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner within 180 s:\n${output}`)), 180_000);
    const poll = setInterval(() => {
      if (output.includes(`Doorwatch demo is running: http://localhost:${port}`)) {
        clearTimeout(timer);
        clearInterval(poll);
        resolve();
      }
    }, 100);
    void exited.then((code) => reject(new Error(`demo exited (${code}) before its banner:\n${output}`)));
  });
  const creds = JSON.parse(readFileSync(join(dir, 'demo-credentials.json'), 'utf8')) as { adminToken: string; secretKey: string };
  assert.ok(creds.secretKey, 'the demo keeps a secret key of its own beside its database');
  for (;;) {
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/sessions?from=now-15m&to=now&limit=1`, {
      headers: { authorization: `Bearer ${creds.adminToken}` },
    });
    if (res.ok && ((await res.json()) as { total: number }).total > 0) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  // Doorwatch refused none of its own fleet's requests or events. (The demo's terminal shows warnings
  // and up only, so a 401 for a bad signature would no longer be seen in its output.)
  const stats = (await (
    await fetch(`http://127.0.0.1:${port}/api/v1/stats?from=now-15m&to=now`, { headers: { authorization: `Bearer ${creds.adminToken}` } })
  ).json()) as { rejectedRequests: number; deadLetters: number };
  assert.deepEqual({ rejectedRequests: stats.rejectedRequests, deadLetters: stats.deadLetters }, { rejectedRequests: 0, deadLetters: 0 });
  // A client waiting on a naive resume (the naive server misbehaves in the first 40 s of every 3 min).
  const file = join(dir, 'doorwatch.db');
  const waitingBy = Date.now() + 120_000;
  while (unendedDeadlocks(file) === 0) {
    assert.ok(Date.now() < waitingBy, 'no client left waiting on a naive resume within 2 minutes of the demo');
    await new Promise((r) => setTimeout(r, 250));
  }
  const servers = doorwatchServers(port);
  assert.equal(servers.length, 1, `Doorwatch's server on port ${port}`);
  const before = groupMembers(pgid);
  // The demo and whatever else the fleet started (Doorwatch's server has a group of its own, above).
  assert.ok(before.length >= 1, `processes of the demo: ${before.join(', ')}`);

  const t0 = Date.now();
  process.kill(-pgid, 'SIGINT');
  // The hang guard is cleared once the demo exits: left running, it kept this file's process alive a
  // further minute after its test passed (npm test measured 64 s for a 3 s test).
  let guard: NodeJS.Timeout | undefined;
  const hung = new Promise<'hung'>((r) => (guard = setTimeout(() => r('hung'), 60_000)));
  const code = await Promise.race([exited, hung]).finally(() => clearTimeout(guard));
  assert.notEqual(code, 'hung', `the demo still runs 60 s after Ctrl+C:\n${output.slice(-2000)}`);
  // Every process of the group is gone (Doorwatch's server too), not only the one we started.
  let left = groupMembers(pgid);
  while ((left.length || doorwatchServers(port).length) && Date.now() - t0 < 60_000) {
    await new Promise((r) => setTimeout(r, 50));
    left = groupMembers(pgid);
  }
  const ms = Date.now() - t0;
  assert.deepEqual(left, [], `still running ${ms} ms after Ctrl+C`);
  assert.deepEqual(doorwatchServers(port), [], `Doorwatch's server still runs ${ms} ms after Ctrl+C`);
  assert.equal(unendedDeadlocks(file), 0, 'the sessions cut by Ctrl+C are ended in the data, not left stuck');
  console.log(`# demo: Ctrl+C → all ${before.length + 1} processes gone in ${ms} ms (exit code ${code})`);
  demo = null;

  // What a newcomer reads: what the build step does, no unsealed-secrets warning, no stack trace.
  assert.match(output, /^build: (up to date|building the workspace packages and the Next\.js app)/m);
  assert.doesNotMatch(output, /stored unencrypted/);
  assert.doesNotMatch(output, /demo failed|Error:|\bat .+:\d+:\d+\)/);
  // Doorwatch did not refuse its own fleet (also checked through the stats above), and its request
  // lines stay off the terminal (warnings and up only: one line per ingest POST was ~55 a second).
  assert.doesNotMatch(output, /invalid_signature|unknown server/i);
  assert.doesNotMatch(output, /INFO[^\n]{0,16}request(?! failed)/);
  assert.match(output, /kept in .*demo-credentials\.json as "adminToken"/);
});
