// Long sessions (issue 26): one token streaming for minutes, delivered in many batches, must cost
// per event about what short sessions cost. Both runs post the same number of events in the same
// number of batches, one request at a time, to one app, in one run: the ratio is long ÷ short
// milliseconds per event. A write path that re-reads the whole stored timeline of every session a
// batch touches makes the long session's batches grow slower as its timeline grows (O(n²) in all);
// the first and last tenth of its batches are reported apart to show that growth.
import { generateSecret } from '@/lib/contract/server-secret';
import { serverName, type BenchEvent } from './fleet';
import { drive, makeBatches, type Batch, type RunResult } from './ingest-driver';
import {
  cleanupSqlite,
  createPgDatabase,
  dropPgDatabase,
  log,
  machine,
  num,
  prepareDatabase,
  round,
  startApp,
  tempSqliteUrl,
  type Args,
  type BenchApp,
} from './common';

/** One session: opened, a completed upgrade, then drop/resume cycles until `events`, in order. */
export function longSessionBatches(events: number, batches: number, server: string, prefix: string): Batch[] {
  const token = `${prefix}long`;
  const end = Date.now() - 60_000;
  // Spread over the last 25 minutes, so every event lands in the stats window.
  const step = Math.max(1, Math.floor((25 * 60_000) / events));
  let at = end - step * events;
  const all: BenchEvent[] = [];
  const push = (type: string, data: Record<string, unknown>) => {
    all.push({ id: `${token}.${all.length}`, token, type, at: new Date((at += step)).toISOString(), data });
  };
  push('session.opened', {});
  push('upgrade.accepted', { eventId: 1 });
  push('upgrade.completed', {});
  const cycle: [string, Record<string, unknown>][] = [
    ['stream.dropped', { reason: 'reset' }],
    ['resume.requested', { lastEventId: 3 }],
    ['resume.accepted', { replayed: 1 }],
  ];
  for (let i = 0; all.length < events - 1; i++) push(...cycle[i % 3]);
  push('session.closed', { reason: 'client' });
  const size = Math.ceil(events / batches);
  const out: Batch[] = [];
  for (let i = 0; i < all.length; i += size) {
    const part = all.slice(i, i + size);
    out.push({ server, events: part, payload: JSON.stringify({ events: part }) });
  }
  return out;
}

const usPerEvent = (r: RunResult) => round((r.seconds * 1e6) / Math.max(1, r.accepted), 1);

/** Mean request time of a slice of the long run's batches (they were sent one at a time, in order). */
function sliceMs(latencies: readonly number[], from: number, to: number): number {
  const part = latencies.slice(from, to);
  return round(part.reduce((s, x) => s + x, 0) / Math.max(1, part.length), 1);
}

async function onApp(app: BenchApp, server: string, secrets: Map<string, string>, events: number, batches: number, prefix: string) {
  await drive([app], makeBatches(400, 1, 20, `w${prefix}`), secrets, 1);
  const short = await drive([app], makeBatches(events, 1, Math.ceil(events / batches), `s${prefix}`), secrets, 1);
  const latencies: number[] = [];
  const long = await drive([app], longSessionBatches(events, batches, server, `l${prefix}`), secrets, 1, undefined, latencies);
  const tenth = Math.max(1, Math.floor(latencies.length / 10));
  return {
    short: { accepted: short.accepted, seconds: short.seconds, usPerEvent: usPerEvent(short), requestMs: short.requestMs },
    long: {
      accepted: long.accepted,
      seconds: long.seconds,
      usPerEvent: usPerEvent(long),
      requestMs: long.requestMs,
      firstTenthMeanMs: sliceMs(latencies, 0, tenth),
      lastTenthMeanMs: sliceMs(latencies, latencies.length - tenth, latencies.length),
    },
    ratio: round(usPerEvent(long) / usPerEvent(short), 2),
  };
}

export async function benchLongSession(args: Args) {
  const events = num(args, 'long-events', 50_000);
  const batches = num(args, 'long-batches', 100);
  // bench:ingest's targets, less the two-instance one (one token is one instance's work at a time).
  const only = (args.flags.get('targets') ?? 'sqlite,postgresql').split(',').filter((t) => t === 'sqlite' || t === 'postgresql');
  const server = serverName(0);
  const secrets = new Map([[server, generateSecret()]]);
  const serverList = [{ name: server, secret: secrets.get(server)! }];
  const targets: Record<string, unknown> = {};
  for (const target of only) {
    const prefix = `${target.slice(0, 2)}${Date.now().toString(36)}-`;
    const loadavg = machine().loadavg;
    log(`long session ${target}: ${events} events in ${batches} batches, against as many short-session events (load ${loadavg.join(' ')})`);
    const sqlite = target === 'sqlite' ? tempSqliteUrl() : null;
    const name = `dw_bench_long_${process.pid}`;
    const url = sqlite ? sqlite.url : await createPgDatabase(name);
    try {
      await prepareDatabase(url, serverList);
      const app = await startApp(url, {}, [], 'npm-start');
      try {
        targets[target] = { loadavg, ...(await onApp(app, server, secrets, events, batches, prefix)) };
      } finally {
        await app.stop();
      }
    } finally {
      if (sqlite) cleanupSqlite(sqlite.dir);
      else await dropPgDatabase(name);
    }
    log(`long session ${target}: ${JSON.stringify(targets[target])}`);
  }
  return { part: 'long-session', machine: machine(), events, batches, targets, loadavgAfter: machine().loadavg };
}
