// The body of one ingest thread (started by ingest-threads.ts from its compiled bundle,
// dist/ingest/ingest-thread.cjs). It verifies, parses and stores batches with its own database
// connection, so the request thread only serves HTTP. Nothing here is Next-specific or Prisma:
// just the driver-level Sql the write path already uses.
import { parentPort, workerData } from 'node:worker_threads';
import { settings } from '@/lib/config/settings';
import { utf8Text } from '@/lib/http/read-limited-body';
import { AsyncQueue, type Sql } from '@/lib/db/sql';
import { createSqliteSql } from '@/lib/db/sqlite-sql';
import { createPostgresqlSql } from '@/lib/db/postgresql-sql';
import { observeQueries, withQueryTiming } from '@/lib/db/timed-sql';
import { adoptSqliteWriteLock, sqliteWriteLock } from '@/lib/db/thread-write-lock';
import { subscribeChanges } from '@/lib/live/change-feed';
import { examineBody, storeBody, type ExaminedBody } from './ingest-body';
import {
  describeFailure,
  type JobReply,
  type ThreadReply,
  type ThreadRequest,
  type ThreadSetup,
  type QueryTiming,
} from './ingest-thread-messages';

const port = parentPort!;
const setup = workerData as ThreadSetup;
adoptSqliteWriteLock(setup.sqliteLock);

function openSql(): Sql {
  const s = settings();
  const config = s.DATABASE_URL;
  return config.provider === 'sqlite'
    ? createSqliteSql(config.sqliteFile!, s.DOORWATCH_SQLITE_BUSY_TIMEOUT_MS, new AsyncQueue(sqliteWriteLock()))
    : createPostgresqlSql(config.url, setup.pgPoolSize);
}

const sql = withQueryTiming(openSql());
// Statement timings and SQLite's in-process change announcements belong to the request thread,
// which owns /metrics and the live feed: they travel back with each reply.
let timings: QueryTiming[] = [];
observeQueries((operation, seconds) => timings.push([operation, seconds]));
subscribeChanges((change) => port.postMessage({ kind: 'change', change } satisfies ThreadReply));

/** Examined bodies waiting for the request thread's rate-limit decision, by job id. */
const held = new Map<number, { server: string; raw: string; body: ExaminedBody }>();

async function answer(request: ThreadRequest): Promise<JobReply> {
  switch (request.op) {
    case 'examine': {
      const raw = utf8Text(request.raw);
      const body = examineBody(raw, request.headers, request.secrets);
      held.set(request.id, { server: request.server, raw, body });
      return { kind: 'examined', id: request.id, eventCount: body.events.length };
    }
    case 'store': {
      const job = held.get(request.id);
      held.delete(request.id);
      if (!job) throw new Error(`ingest thread: no examined body ${request.id}`);
      const result = await storeBody(sql, job.server, job.raw, job.body);
      return { kind: 'stored', id: request.id, result };
    }
    case 'release':
      held.delete(request.id);
      return { kind: 'released', id: request.id };
  }
}

/**
 * The timings recorded since the last reply. Jobs that wait on the network (PostgreSQL) overlap, so a
 * reply may carry another job's statements: only their sum reaches the metric, so that is fine.
 */
function takeTimings(): QueryTiming[] {
  const taken = timings;
  timings = [];
  return taken;
}

port.on('message', (request: ThreadRequest) => {
  answer(request).then(
    (reply) => port.postMessage({ ...reply, timings: takeTimings() }),
    (err: unknown) =>
      port.postMessage({ kind: 'failed', id: request.id, failure: describeFailure(err), timings: takeTimings() } satisfies ThreadReply),
  );
});
