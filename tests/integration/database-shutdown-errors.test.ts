// A PostgreSQL server shutting down and starting again under concurrent Prisma reads, pool queries
// and open transactions: every error the app sees must classify as retryable (so routes answer
// 503 + Retry-After, never 500), and a connection lost between two statements of a transaction
// must not surface as an uncaught exception. Both were seen in CI: Prisma 7 reports "the database
// system is shutting down" as P2039 with the SQLSTATE only in meta.driverAdapterError, and pg-pool
// leaves a checked-out client without an 'error' listener.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { openDb, type Db } from '@/lib/db/client';
import { readDatabaseConfig } from '@/lib/config/database-url';
import { runMigrations } from '@/lib/db/migrate/run-migrations';
import { isRetryableDatabaseError } from '@/lib/db/database-errors';
import { startThrowawayCluster, type ThrowawayCluster } from '../../scripts/test-postgres.mjs';
import { testProvider } from '../support/test-database';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const cleanups: (() => Promise<void>)[] = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

test(
  'postgresql: errors while the server stops and starts are all retryable, and none escapes as uncaught',
  { skip: testProvider() !== 'postgresql' && 'stops a PostgreSQL cluster: runs in the PostgreSQL pass' },
  async () => {
    const cluster: ThrowawayCluster = await startThrowawayCluster();
    cleanups.push(async () => cluster.stop());
    const config = readDatabaseConfig({ DATABASE_URL: cluster.url });
    await runMigrations(config);
    const db: Db = openDb(config);
    cleanups.push(() => db.close());

    const uncaught: string[] = [];
    const onUncaught = (err: Error) => void uncaught.push(err.message);
    process.on('uncaughtException', onUncaught);
    cleanups.push(async () => {
      process.off('uncaughtException', onUncaught);
    });

    const notRetryable = new Map<string, number>();
    let errors = 0;
    const record = (err: unknown) => {
      errors++;
      if (isRetryableDatabaseError(err)) return;
      const e = err as { code?: unknown; message?: unknown };
      const key = `${String(e.code)} ${String(e.message).replace(/\s+/g, ' ').slice(0, 160)}`;
      notRetryable.set(key, (notRetryable.get(key) ?? 0) + 1);
    };
    let stop = false;
    const loop = async (work: () => Promise<unknown>) => {
      while (!stop) await work().catch(record);
    };
    const work = [
      () => db.prisma.serverSecret.findMany({ where: { serverName: 'alpha' } }),
      () => db.sql.query('SELECT 1'),
      // Idle between statements, so the shutdown can land while the client is checked out but not querying.
      () =>
        db.sql.transaction(async (tx) => {
          await tx.query('SELECT 1');
          await sleep(3);
          await tx.query('SELECT pg_sleep(0.01)');
        }),
    ];
    const running = work.flatMap((w) => [loop(w), loop(w), loop(w)]);
    for (let round = 0; round < 3; round++) {
      await sleep(800);
      await cluster.pause();
      await sleep(1_200);
      await cluster.resume();
    }
    await sleep(800);
    stop = true;
    await Promise.all(running);

    assert.ok(errors > 0, 'the shutdowns did interrupt work');
    assert.deepEqual([...notRetryable], [], 'every error during the shutdowns is retryable');
    assert.deepEqual(uncaught, [], 'no uncaught exception');
    // And the pool recovers: no broken client was returned to it.
    for (let i = 0; i < 20; i++) await db.sql.transaction((tx) => tx.query('SELECT 1'));
  },
);
