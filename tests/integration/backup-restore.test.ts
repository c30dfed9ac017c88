// Backups restore to the same answers (docs/deploy.md#backups).
// SQLite: `npm run db:backup` (VACUUM INTO) runs while retrying senders keep ingesting. The
// backup's point is read from the backup itself: the (server, event id) pairs it holds. It must be
// a consistent cut (every batch whole or absent, every batch acknowledged before the backup
// started present, none first sent after it finished), its rows must equal the oracle
// (`summarize` etc. of exactly those events), and an app started on the restored file must
// answer the query API exactly as a fresh app fed exactly those batches does (write-clock fields
// aside: the two were fed at different times).
// PostgreSQL (daily partitions of Event and DeadLetter): `npm run db:backup` (pg_dump -Fc) of a
// database the app filled, `pg_restore` into a new database, and an app on it answers exactly as
// the source (write clocks included: the rows are the same), with the partitions restored.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { generateSecret } from '@/lib/contract/server-secret';
import { TEST_ADMIN_TOKEN, startAppServer, type AppServer } from '../support/app-server';
import { adminQuery, testPgUrl, testProvider, withDatabase } from '../support/test-database';
import { T0, type SentEvent } from '../support/random-timelines';
import { deliverBatches, senderServers, shuffledBatches, statusCounts } from '../support/retrying-sender';
import { assertStoredMatches } from '../support/expected-state';
import { apiAnswers } from '../support/api-answers';

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..');
const { secrets, env } = senderServers(['alpha', 'beta'], generateSecret);
const WINDOW = { fromMs: T0 - 3_600_000, toMs: T0 + 86_400_000 };

const cleanups: (() => Promise<void> | void)[] = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** `npm run db:backup -- dest` against `databaseUrl`, as an operator runs it. */
async function npmBackup(databaseUrl: string, dest: string): Promise<string> {
  const { stdout } = await run('npm', ['run', '-s', 'db:backup', '--', dest], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl },
  });
  return stdout.trim();
}

/** A few sessions worth a detail: the first tokens of each server, and some with a predecessor (a chain). */
function detailsOf(answers: { sessions: unknown }): string[] {
  const sessions = answers.sessions as { server: string; token: string; previousToken: string | null }[];
  const chained = sessions.filter((s) => s.previousToken !== null).slice(0, 3);
  return [...sessions.slice(0, 3), ...chained].map((s) => `${s.server}/${s.token}`);
}

test(
  'sqlite: an online backup taken mid-ingest is a consistent cut, and restored it answers as the events it holds',
  { skip: testProvider() !== 'sqlite' && 'SQLite online backup: runs in the SQLite pass (the PostgreSQL pass dumps and restores below)' },
  async () => {
    const source = await startAppServer({ env });
    cleanups.push(() => source.stop());
    const dir = mkdtempSync(join(tmpdir(), 'doorwatch-backup-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const backupFile = join(dir, 'backup.db');

    const batches = shuffledBatches('bk', 500, 2801);
    // Per batch: when it was first sent and when it was acknowledged.
    const firstSent = new Map<number, number>();
    let backup: Promise<{ from: number; to: number; line: string }> | null = null;
    const backupAt = Math.floor(batches.length / 3);
    const log = await deliverBatches(batches, {
      url: () => source.url,
      secrets,
      concurrency: 4,
      // Paced so the stream lasts several seconds and the backup (npm + tsx start-up, then VACUUM INTO) falls inside it.
      eventsPerSecond: 500,
      deadlineMs: 120_000,
      beforeBatch(index) {
        firstSent.set(index, Date.now());
        if (index === backupAt) {
          const from = Date.now();
          backup = npmBackup(source.databaseUrl, backupFile).then((line) => ({ from, to: Date.now(), line }));
        }
      },
    });
    assert.deepEqual(log.failed, [], 'every batch acknowledged');
    const window = await backup!;

    const file = new Database(backupFile, { readonly: true });
    const inBackup = new Set(
      file
        .prepare('SELECT "server", "eventId" FROM "Event"')
        .all()
        .map((r: any) => `${r.server}/${r.eventId}`),
    );
    file.close();
    const whole = batches.map((b) => b.events.filter((e) => inBackup.has(`${b.server}/${e.id}`)).length);
    assert.deepEqual(
      batches.map((b, i) => i).filter((i) => whole[i] !== 0 && whole[i] !== batches[i].events.length),
      [],
      'every batch is in the backup whole or not at all (a transaction-consistent cut)',
    );
    const kept = batches.filter((_, i) => whole[i] > 0);
    const keptIndexes = new Set(batches.map((_, i) => i).filter((i) => whole[i] > 0));
    assert.ok(kept.length > 0 && kept.length < batches.length, `the backup falls mid-stream (${kept.length} of ${batches.length} batches)`);
    // A sender takes the next batch only once its previous one is acknowledged: when batch `backupAt` was
    // first sent, every earlier batch but the (at most 3) others in flight was committed, before the backup began.
    const missedEarlier = batches.map((_, i) => i).filter((i) => i < backupAt && !keptIndexes.has(i));
    assert.ok(missedEarlier.length <= 3, `every batch acknowledged before the backup began is in it (missing ${missedEarlier.join(', ')})`);
    const sentAfter = batches.map((_, i) => i).filter((i) => firstSent.get(i)! > window.to);
    assert.ok(sentAfter.length > 0, 'ingest went on after the backup finished');
    assert.deepEqual(
      sentAfter.filter((i) => keptIndexes.has(i)),
      [],
      'no batch first sent after the backup finished is in it',
    );
    const duringBackup = log.answers.filter((a) => a.status === 200 && a.at > window.from && a.at < window.to).length;
    assert.ok(duringBackup > 0, 'ingest kept acknowledging batches while the backup ran');

    // Restore = put the file in place and start the app on it.
    const restoredFile = join(dir, 'restored.db');
    copyFileSync(backupFile, restoredFile);
    const restored = await startAppServer({ databaseUrl: `file:${restoredFile}`, env });
    cleanups.push(() => restored.stop());
    const held: SentEvent[] = kept.flatMap((b) => b.events.map((event) => ({ server: b.server, event })));
    assert.equal(held.length, inBackup.size);
    await assertStoredMatches(restored.query, held, 'bk-', { url: restored.url, token: TEST_ADMIN_TOKEN, ...WINDOW });

    // The same batches fed to a fresh app: the restored one must answer the same.
    const refed = await startAppServer({ env });
    cleanups.push(() => refed.stop());
    const again = await deliverBatches(kept, { url: () => refed.url, secrets, concurrency: 4, deadlineMs: 60_000 });
    assert.deepEqual(again.failed, []);
    const writeClocks = ['receivedAt', 'updatedAt'];
    const expected = await apiAnswers(refed.url, TEST_ADMIN_TOKEN, WINDOW, [], writeClocks);
    const details = detailsOf(expected);
    assert.deepEqual(
      await apiAnswers(restored.url, TEST_ADMIN_TOKEN, WINDOW, details, writeClocks),
      await apiAnswers(refed.url, TEST_ADMIN_TOKEN, WINDOW, details, writeClocks),
      'the restored backup answers as the events it holds',
    );
    console.log(
      `sqlite backup: ${window.line}; ${inBackup.size} of ${log.record.length} events (${kept.length} of ${batches.length} batches), ` +
        `${duringBackup} batches acknowledged while it ran (${window.to - window.from} ms with npm start-up), answers ${JSON.stringify(statusCounts(log.answers))}`,
    );
  },
);

/** Partitions of Event and DeadLetter as `parent:child` names. */
async function partitions(app: AppServer): Promise<string[]> {
  const rows = await app.query<{ parent: string; child: string }>(
    `SELECT p.relname AS "parent", c.relname AS "child" FROM pg_inherits i
       JOIN pg_class p ON p.oid = i.inhparent JOIN pg_class c ON c.oid = i.inhrelid
      WHERE p.relname IN ('Event', 'DeadLetter') ORDER BY 1, 2`,
  );
  return rows.map((r) => `${r.parent}:${r.child}`);
}

test(
  'postgresql: pg_dump of a partitioned database, restored with pg_restore into a new database, answers identically',
  { skip: testProvider() !== 'postgresql' && 'pg_dump/pg_restore: runs in the PostgreSQL pass (the SQLite pass backs up above)' },
  async () => {
    const source = await startAppServer({ env });
    cleanups.push(() => source.stop());
    const log = await deliverBatches(shuffledBatches('pgdump', 300, 2901), {
      url: () => source.url,
      secrets,
      concurrency: 4,
      deadlineMs: 120_000,
    });
    assert.deepEqual(log.failed, []);
    const sourceParts = await partitions(source);
    assert.ok(sourceParts.filter((p) => p.startsWith('Event:')).length > 1, `Event is partitioned (${sourceParts.length} partitions)`);

    const dir = mkdtempSync(join(tmpdir(), 'doorwatch-dump-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const dump = join(dir, 'doorwatch.dump');
    const line = await npmBackup(source.databaseUrl, dump);
    const name = `dw_t_restore_${process.pid}_${Date.now()}`;
    await adminQuery(`CREATE DATABASE "${name}"`);
    cleanups.push(() => adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    const target = withDatabase(testPgUrl(), name);
    const started = performance.now();
    await run('pg_restore', ['--exit-on-error', '--no-owner', '--dbname', target, dump]);
    const restoreMs = Math.round(performance.now() - started);

    const restored = await startAppServer({ databaseUrl: target, env });
    cleanups.push(() => restored.stop());
    assert.deepEqual(await partitions(restored), sourceParts, 'the same partitions, each under its parent');
    const expected = await apiAnswers(source.url, TEST_ADMIN_TOKEN, WINDOW, []);
    const details = detailsOf(expected);
    assert.deepEqual(
      await apiAnswers(restored.url, TEST_ADMIN_TOKEN, WINDOW, details),
      await apiAnswers(source.url, TEST_ADMIN_TOKEN, WINDOW, details),
      'the restored database answers exactly as its source',
    );
    await assertStoredMatches(restored.query, log.record, 'pgdump-', { url: restored.url, token: TEST_ADMIN_TOKEN, ...WINDOW });
    console.log(`postgresql dump: ${line}; pg_restore ${restoreMs} ms; ${log.record.length} events, ${sourceParts.length} partitions`);
  },
);
