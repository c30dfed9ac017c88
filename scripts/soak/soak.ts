// The soak (issue 28, "Long runs and many watchers"): the production build (`npm start`'s path) on one
// database, ingest at half the maximum rate (measured first unless given) for N minutes while dashboards
// poll the overview's queries and SSE clients watch the change stream. Every ~10 s it samples the app
// (samples.ts); at the end it reports least-squares slopes, ingest p95 per window against the first
// window, and compares the query API's totals with what the senders had acknowledged.
import { loadavg, cpus } from 'node:os';
import { generateSecret } from '@/lib/contract/server-secret';
import { startDoorwatchProcess, type DoorwatchProcess } from '../launch/doorwatch-process';
import { latencyFigures, openDashboards, type PollAnswer } from '../../tests/support/dashboard-clients';
import { openWatchers, type Watcher } from './change-watchers';
import { latencyWindows, p95WithinRule, slopePerMinute, type WindowFigures } from './figures';
import { soakServers, startIngestLoad, type IngestLoad } from './ingest-load';
import { openSampler, type Sample } from './samples';

export const SOAK_TOKEN = 'dw_soak_admin_token_0123456789abcdef';
/** Seconds of saturated ingest that measure the maximum rate (after a few seconds' warm-up). */
const PROBE_SECONDS = 20;
/** Batches in flight while measuring the maximum: the ingest benchmark's concurrency. */
const PROBE_IN_FLIGHT = 4;

export interface SoakOptions {
  databaseUrl: string;
  minutes: number;
  /** Events per second to hold; default half of `maxRate`. */
  rate?: number;
  /** The maximum ingest rate; measured (PROBE_SECONDS saturated) when neither it nor `rate` is given. */
  maxRate?: number;
  watchers?: number;
  dashboards?: number;
  sampleSeconds?: number;
  /** Length of a p95 window and of the warm-up left out of the "after warm-up" slopes (default 5 min, or a third of a shorter run). */
  windowMinutes?: number;
  /** The 20 % rule's allowance (p95 of a window over the first window's). */
  allowedP95Ratio?: number;
  /**
   * Events already stored when the soak starts (seeded before the app starts, older than anything the soak's
   * windows and checks read). A steady-state deployment's indexes are large: from an empty file, every batch's
   * commit grows with the indexes until most of its random-keyed inserts land on pages of their own.
   */
  seededEvents?: number;
  log?: (line: string) => void;
  /** Ends the load early (Ctrl+C): the run still stops the app and reports what it has. */
  signal?: AbortSignal;
}

const SAMPLED = ['rssMb', 'serverRssMb', 'heapUsedMb', 'openFds', 'groupFds', 'dbConnections'] as const;
type Sampled = (typeof SAMPLED)[number];
const round = (x: number | null, d = 2) => (x === null ? null : Math.round(x * 10 ** d) / 10 ** d);

function slopes(samples: readonly Sample[], fromMs: number): Record<Sampled, number | null> {
  const after = samples.filter((s) => s.at >= fromMs);
  return Object.fromEntries(
    SAMPLED.map((k) => [k, round(slopePerMinute(after.flatMap((s) => (s[k] === null ? [] : [{ x: s.at, y: s[k] }]))))]),
  ) as Record<Sampled, number | null>;
}

async function apiJson<T>(app: DoorwatchProcess, path: string): Promise<T> {
  const res = await fetch(`${app.url}${path}`, { headers: { authorization: `Bearer ${SOAK_TOKEN}` } });
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Nothing accepted lost, nothing counted twice: the query API's totals against the senders' acknowledged events and sessions. */
type ServerTotals = Map<string, { events: number; sessions: number }>;

/** Every server's all-time totals from the query API (the seeded part, before the soak sends anything). */
async function serverTotals(app: DoorwatchProcess): Promise<ServerTotals> {
  const { servers } = await apiJson<{ servers: { name: string; events: number; sessions: number }[] }>(app, '/api/v1/servers');
  return new Map(servers.map((s) => [s.name, { events: s.events, sessions: s.sessions }]));
}

async function losslessCheck(app: DoorwatchProcess, loads: readonly IngestLoad[], fromMs: number, before: ServerTotals) {
  const expected = new Map<string, { events: number; sessions: number }>();
  for (const l of loads)
    for (const [server, v] of l.ledger) {
      const e = expected.get(server) ?? { events: 0, sessions: 0 };
      expected.set(server, { events: e.events + v.events, sessions: e.sessions + v.sessions });
    }
  const sum = (k: 'events' | 'sessions') => [...expected.values()].reduce((s, v) => s + v[k], 0);
  const after = await serverTotals(app);
  // What the soak added: the totals now less those it started from (a seeded database's).
  const perServer = [...expected].map(([name, want]) => {
    const got = after.get(name) ?? { events: 0, sessions: 0 };
    const had = before.get(name) ?? { events: 0, sessions: 0 };
    return { server: name, expected: want, api: { events: got.events - had.events, sessions: got.sessions - had.sessions } };
  });
  const from = new Date(fromMs - 45 * 60_000).toISOString();
  const to = new Date(Date.now() + 60_000).toISOString();
  const stats = await apiJson<{ events: number; sessions: number }>(app, `/api/v1/stats?from=${from}&to=${to}`);
  const accepted = loads.reduce((s, l) => s + l.accepted, 0);
  const result = {
    expected: { events: sum('events'), sessions: sum('sessions') },
    acceptedByAnswers: accepted,
    stats: { events: stats.events, sessions: stats.sessions },
    perServer,
  };
  const pass =
    accepted === result.expected.events &&
    result.stats.events === result.expected.events &&
    result.stats.sessions === result.expected.sessions &&
    perServer.every((p) => p.api.events === p.expected.events && p.api.sessions === p.expected.sessions);
  return { ...result, pass };
}

/** Saturates ingest for PROBE_SECONDS (after 5 s of warm-up) and returns the events per second accepted. */
async function measureMaxRate(app: DoorwatchProcess, secrets: ReadonlyMap<string, string>, loads: IngestLoad[]) {
  const warm = startIngestLoad({ url: app.url, secrets, rate: 1e6, prefix: 'sw', maxInFlight: PROBE_IN_FLIGHT });
  loads.push(warm);
  await new Promise((r) => setTimeout(r, 5_000));
  await warm.stop();
  const probe = startIngestLoad({ url: app.url, secrets, rate: 1e6, prefix: 'sp', maxInFlight: PROBE_IN_FLIGHT });
  loads.push(probe);
  const t = performance.now();
  await new Promise((r) => setTimeout(r, PROBE_SECONDS * 1000));
  await probe.stop();
  return Math.round(probe.accepted / ((performance.now() - t) / 1000));
}

function watcherFigures(watchers: readonly Watcher[]) {
  const changes = watchers
    .filter((w) => w.status === 200)
    .map((w) => w.changes)
    .sort((a, b) => a - b);
  return {
    opened: watchers.filter((w) => w.status === 200).length,
    refused: watchers.filter((w) => w.status !== 200).length,
    endedByServer: watchers.filter((w) => w.ended).length,
    changesRead: { min: changes[0] ?? 0, median: changes[Math.floor(changes.length / 2)] ?? 0, max: changes.at(-1) ?? 0 },
  };
}

function pollFigures(polled: readonly PollAnswer[]) {
  const byStatus: Record<string, number> = {};
  for (const p of polled) byStatus[p.status] = (byStatus[p.status] ?? 0) + 1;
  return { answers: byStatus, latencyMs: latencyFigures(polled.filter((p) => p.status === 200).map((p) => p.ms)) };
}

/** Waits `ms`, or less if `signal` aborts (its listener removed either way: the loop waits hundreds of times). */
function pause(ms: number, signal?: AbortSignal) {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done);
  });
}

export type SoakResult = Awaited<ReturnType<typeof runSoak>>;

export async function runSoak(o: SoakOptions) {
  const log = o.log ?? (() => undefined);
  const watcherCount = o.watchers ?? 200;
  const windowMinutes = o.windowMinutes ?? Math.min(5, o.minutes / 3);
  const allowed = o.allowedP95Ratio ?? 1.2;
  const provider = o.databaseUrl.startsWith('file:') ? 'sqlite' : 'postgresql';
  const secrets = soakServers(4, generateSecret);
  const app = await startDoorwatchProcess({
    env: {
      DATABASE_URL: o.databaseUrl,
      DOORWATCH_ADMIN_TOKEN: SOAK_TOKEN,
      DOORWATCH_SERVERS: [...secrets].map(([n, s]) => `${n}=${s}`).join(','),
      // The soak measures the app at a rate, not the per-server limiter.
      DOORWATCH_INGEST_RATE: '10000000',
      DOORWATCH_INGEST_BURST: '10000000',
      DOORWATCH_CHANGE_STREAMS_PER_TOKEN: String(watcherCount + 10),
    },
    maxLogChars: 200_000,
  });
  const loads: IngestLoad[] = [];
  try {
    const loadBefore = loadavg().map((x) => round(x)!);
    const totalsBefore = await serverTotals(app);
    let maxRate = o.maxRate ?? null;
    let maxRateSource = maxRate === null ? 'none' : 'given';
    if (o.rate === undefined && maxRate === null) {
      log(`measuring the maximum ingest rate (${PROBE_SECONDS} s saturated, ${PROBE_IN_FLIGHT} in flight)`);
      maxRate = await measureMaxRate(app, secrets, loads);
      maxRateSource = 'measured';
    }
    const rate = o.rate ?? Math.round(maxRate! / 2);
    log(`max rate ${maxRate ?? '-'} ev/s (${maxRateSource}); soak at ${rate} ev/s for ${o.minutes} min, ${watcherCount} watchers`);

    const watchers = await openWatchers(app.url, SOAK_TOKEN, watcherCount);
    const dashboards = openDashboards({
      url: () => app.url,
      tokens: Array.from({ length: o.dashboards ?? 4 }, () => SOAK_TOKEN),
      // The overview's three queries every ~5 s (its "5s" refresh), one after another.
      intervalMs: 1_600,
    });
    const sampler = await openSampler({ url: app.url, pgid: app.pid, token: SOAK_TOKEN, databaseUrl: o.databaseUrl });
    const samples: Sample[] = [await sampler.sample()];
    const started = Date.now();
    const load = startIngestLoad({ url: app.url, secrets, rate, prefix: 's' });
    loads.push(load);
    const endAt = started + o.minutes * 60_000;
    while (Date.now() < endAt && !o.signal?.aborted) {
      await pause(Math.min((o.sampleSeconds ?? 10) * 1000, Math.max(0, endAt - Date.now())), o.signal);
      const s = await sampler.sample();
      samples.push(s);
      const recent = load.answers.filter((a) => a.at > s.at - 10_000 && a.status === 200).map((a) => a.ms);
      const p95 = latencyFigures(recent).p95;
      log(
        `${((s.at - started) / 60_000).toFixed(1)} min: rss ${s.rssMb} MB, heap ${s.heapUsedMb} MB, fds ${s.openFds}/${s.groupFds}, db ${s.dbConnections}, streams ${s.changeStreams}, p95 ${p95} ms, load ${s.load1}`,
      );
    }
    const ended = Date.now();
    await load.stop();
    const polled = await dashboards.stop();
    samples.push(await sampler.sample());
    await sampler.close();
    const watched = watcherFigures(watchers.watchers);
    watchers.close();

    const answers = load.answers;
    // Each window with the machine's mean 1-minute load over it: on a shared machine p95 follows it.
    const windows = latencyWindows(
      answers.filter((a) => a.status === 200),
      started,
      ended,
      windowMinutes,
    ).map((w: WindowFigures) => {
      const inside = samples.filter((s) => s.at >= started + w.fromMin * 60_000 && s.at < started + w.toMin * 60_000);
      return { ...w, load1: round(inside.reduce((sum, s) => sum + s.load1, 0) / Math.max(1, inside.length), 1) };
    });
    const lossless = await losslessCheck(app, loads, started, totalsBefore);
    const statusCounts: Record<string, number> = {};
    for (const a of answers) statusCounts[a.status] = (statusCounts[a.status] ?? 0) + 1;
    const result = {
      provider,
      at: new Date(started).toISOString(),
      minutes: o.minutes,
      seededEvents: o.seededEvents ?? 0,
      machine: { cores: cpus().length, loadavgBefore: loadBefore, loadavgAfter: loadavg().map((x) => round(x)!) },
      maxRate: { eventsPerSecond: maxRate, source: maxRateSource },
      rate,
      ingest: {
        sent: load.sent,
        accepted: load.accepted,
        duplicates: load.duplicates,
        achievedRate: Math.round(load.accepted / ((ended - started) / 1000)),
        requests: answers.length,
        retries: answers.filter((a) => a.retry).length,
        answers: statusCounts,
        failed: load.failed.length,
        behindMs: Math.round(load.behindMs),
        latencyMs: latencyFigures(answers.filter((a) => a.status === 200).map((a) => a.ms)),
      },
      p95: { windowMinutes, allowedRatio: allowed, windows, pass: p95WithinRule(windows, allowed) },
      slopesPerMinute: { whole: slopes(samples, started), afterWarmup: slopes(samples, started + windowMinutes * 60_000) },
      watchers: watched,
      dashboards: pollFigures(polled),
      lossless,
      samples,
    };
    return result;
  } finally {
    for (const l of loads) await l.stop();
    await app.stop();
  }
}
