// Steady load: 60 s of signed ingest at a fixed rate (half the benchmark's measured SQLite rate
// would be ~12,500 ev/s on a quiet machine; CI's shared 2 cores hold DOORWATCH_TEST_LOAD_RATE,
// default 3,000 ev/s) while two dashboard clients poll stats, sessions and servers. Asserted:
// 0 errors (every ingest request 200 at the first attempt, every dashboard request 200), every
// event stored, and no RSS growth trend after warm-up (mean of the last third of the run within
// 1.3× the middle third). Latency percentiles and RSS are reported (printed and written to
// test-output/steady-load-<provider>.json), not asserted. It runs once per `npm test`: in the
// pass of DOORWATCH_TEST_LOAD_DATABASE (default sqlite).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateSecret } from '@/lib/contract/server-secret';
import { generateFleet } from '../../scripts/bench/fleet';
import { TEST_ADMIN_TOKEN, startAppServer, type AppServer } from '../support/app-server';
import { testProvider } from '../support/test-database';
import { deliverBatches, senderServers, statusCounts, type Batch } from '../support/retrying-sender';
import { latencyFigures, openDashboards } from '../support/dashboard-clients';
import { watchRss } from '../support/process-rss';

const DURATION_S = Number(process.env.DOORWATCH_TEST_LOAD_SECONDS ?? 60);
const RATE = Number(process.env.DOORWATCH_TEST_LOAD_RATE ?? 3000);
const BATCH = 100;
const LOAD_DATABASE = process.env.DOORWATCH_TEST_LOAD_DATABASE ?? 'sqlite';
const SERVER_NAMES = ['bench-00', 'bench-01', 'bench-02', 'bench-03'];

let app: AppServer | undefined;
after(async () => app?.stop());

/** The fleet's events, each server's in order, servers interleaved a batch at a time. */
function fleetBatches(events: number): Batch[] {
  const perServer = new Map<string, Batch['events']>();
  for (const s of generateFleet({
    events,
    servers: SERVER_NAMES.length,
    fromMs: Date.parse('2026-11-28T00:00:00Z'),
    toMs: Date.parse('2026-11-28T06:00:00Z'),
    prefix: 'load-',
    seed: 7,
  })) {
    const list = perServer.get(s.server) ?? [];
    list.push(...(s.events as Batch['events']));
    perServer.set(s.server, list);
  }
  const batches: Batch[] = [];
  for (let i = 0; [...perServer.values()].some((l) => i < l.length); i += BATCH) {
    for (const [server, list] of perServer) if (i < list.length) batches.push({ server, events: list.slice(i, i + BATCH) });
  }
  return batches;
}

const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);

test(
  `${testProvider()}: ${DURATION_S} s of steady ingest at ${RATE} ev/s with two dashboards polling: 0 errors, no RSS growth`,
  {
    skip:
      testProvider() !== LOAD_DATABASE &&
      `steady load runs once per npm test (${DURATION_S} s), in the ${LOAD_DATABASE} pass (DOORWATCH_TEST_LOAD_DATABASE)`,
  },
  async () => {
    const { secrets, env } = senderServers(SERVER_NAMES, generateSecret);
    app = await startAppServer({ env });
    const batches = fleetBatches(RATE * DURATION_S);

    const rss = watchRss(app.pid);
    const dashboards = openDashboards({ url: () => app!.url, tokens: [TEST_ADMIN_TOKEN, TEST_ADMIN_TOKEN], intervalMs: 250 });
    const started = performance.now();
    // No retries allowed (deadline 0: the first answer must be the last). The load stops after
    // DURATION_S even if a slow machine fell behind the rate (then fewer events were sent).
    const log = await deliverBatches(batches, {
      url: () => app!.url,
      secrets,
      concurrency: 4,
      eventsPerSecond: RATE,
      deadlineMs: 0,
      signal: AbortSignal.timeout(DURATION_S * 1000),
    });
    const seconds = (performance.now() - started) / 1000;
    const events = log.record.length;
    const polled = await dashboards.stop();
    const samples = rss.stop();

    const third = Math.floor(samples.length / 3);
    const middle = mean(samples.slice(third, 2 * third).map((s) => s.totalKb));
    const last = mean(samples.slice(2 * third).map((s) => s.totalKb));
    const figures = {
      provider: testProvider(),
      at: new Date().toISOString(),
      targetRate: RATE,
      events,
      batches: log.answers.length,
      seconds: Math.round(seconds * 10) / 10,
      achievedRate: Math.round(events / seconds),
      ingest: { answers: statusCounts(log.answers), latencyMs: latencyFigures(log.answers.map((a) => a.ms)) },
      dashboards: {
        answers: statusCounts(polled.map((p) => ({ ...p, retryAfter: null }))),
        latencyMs: latencyFigures(polled.map((p) => p.ms)),
      },
      rssMb: {
        start: Math.round(samples[0].totalKb / 1024),
        end: Math.round(samples.at(-1)!.totalKb / 1024),
        max: Math.round(Math.max(...samples.map((s) => s.totalKb)) / 1024),
        middleThirdMean: Math.round(middle / 1024),
        lastThirdMean: Math.round(last / 1024),
        ratio: Math.round((last / middle) * 1000) / 1000,
        server: {
          process: samples.at(-1)!.largest,
          startMb: Math.round(samples[0].largestKb / 1024),
          endMb: Math.round(samples.at(-1)!.largestKb / 1024),
        },
      },
      loadavg: (await import('node:os')).loadavg().map((x) => Math.round(x * 100) / 100),
    };
    console.log(`steady load: ${JSON.stringify(figures)}`);
    const out = join(__dirname, '..', '..', 'test-output');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, `steady-load-${testProvider()}.json`), JSON.stringify({ ...figures, rssSamples: samples }, null, 2));

    assert.deepEqual(
      log.failed.map((f) => f.answer),
      [],
      '0 ingest errors',
    );
    assert.ok(
      log.answers.every((a) => a.status === 200),
      'no request needed a retry',
    );
    assert.deepEqual(
      polled.filter((p) => p.status !== 200),
      [],
      '0 dashboard errors',
    );
    assert.equal(log.accepted, events, 'every event accepted');
    const [{ n }] = await app.query<{ n: number }>('SELECT COUNT(*) AS "n" FROM "Event"');
    assert.equal(Number(n), events, 'every event stored');
    assert.ok(
      last < 1.3 * middle,
      `no RSS growth after warm-up (last third ${figures.rssMb.lastThirdMean} MB vs middle third ${figures.rssMb.middleThirdMean} MB)`,
    );
  },
);
