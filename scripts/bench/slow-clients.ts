// Slow-clients benchmark (issue 28: "ingest p95 unchanged while 500 slow connections are open"): one app
// (the production build, `npm start`'s path, default timeouts unless --headers-timeout-ms etc.), signed
// ingest paced at --rate ev/s (batches of 100, open loop: scripts/soak/ingest-load.ts) the whole run, and
// phases of --phase-seconds alternating quiet / 500 slow connections held (slow-connections.ts), --rounds
// times. Alternating, in one run, puts both sides under the same drift of a shared machine's load.
// Between phases lies a transition, reported apart and counted in neither side: opening 500 connections at
// once is 300-odd requests' worth of work for the app (the idle ones' GETs, the trickled bodies' handlers)
// and cutting them another burst, which on a loaded machine stall the app for seconds and leave a backlog of
// ingest. So a phase is measured from when the app has taken the connections (the idle ones answered: the
// child's TCP connect completes in the kernel's accept queue, before the app has seen any) and the ingest
// backlog has drained (at most --drained-in-flight batches in flight), and the transition's own figures
// (its length, its p95) say what the burst cost.
//   npm run bench -- slow-clients [--slow 500] [--rate 500] [--rounds 4] [--phase-seconds 30] [--drained-in-flight 4] [--database postgresql]
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { generateSecret } from '@/lib/contract/server-secret';
import { summarizeLatencies } from '@/lib/metrics/percentiles';
import { startDoorwatchProcess } from '../launch/doorwatch-process';
import { soakServers, startIngestLoad, type IngestAnswer } from '../soak/ingest-load';
import { cleanupSqlite, createPgDatabase, dropPgDatabase, log, machine, num, round, tempSqliteUrl, type Args } from './common';
import { readCpuSeconds } from './process-tree';

/** Slow connections held by a child process (hold-slow-connections.ts); `open()` is its last report. */
function slowConnectionsProcess(url: string, server: string, count: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'hold-slow-connections.ts'), url, server, String(count)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let last = { open: 0, opened: 0, answered: 0 };
  const idle = Math.floor(count / 3);
  let opened = () => undefined as void;
  // Resolves once nine in ten are open and nine in ten idle ones answered (a loaded machine takes seconds to
  // start the child, and the app more to take 500 connections), or after 60 s.
  const ready = new Promise<void>((resolve) => ((opened = resolve), setTimeout(resolve, 60_000).unref()));
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (d: string) => {
    const m = /open (\d+) opened (\d+) answered (\d+)\n$/.exec(d);
    if (m) last = { open: Number(m[1]), opened: Number(m[2]), answered: Number(m[3]) };
    if (last.open >= count * 0.9 && last.answered >= idle * 0.9) opened();
  });
  return {
    ready,
    open: () => last.open,
    opened: () => last.opened,
    close: () =>
      new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : (child.once('exit', () => resolve()), child.kill('SIGTERM')))),
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function figures(answers: readonly IngestAnswer[]) {
  const ok = answers.filter((a) => a.status === 200).map((a) => a.ms);
  const s = summarizeLatencies(ok);
  return { requests: answers.length, ok: ok.length, p50: round(s.p50 ?? NaN), p95: round(s.p95 ?? NaN), p99: round(s.p99 ?? NaN) };
}

interface Phase {
  kind: 'quiet' | 'slow';
  /** When the slow connections were opened (→ slow) or cut (→ quiet). */
  changed: number;
  /** The measured part: once the app took the change and the ingest backlog drained. */
  from: number;
  to: number;
  open: number[];
  load1: number;
  appCores: number;
}

/** Waits until at most `max` ingest batches are in flight (the backlog a transition left has drained), 120 s at most. */
async function drained(load: { inFlight(): number }, max: number) {
  const end = Date.now() + 120_000;
  while (load.inFlight() > max && Date.now() < end) await sleep(250);
}

function phaseFigures(answers: readonly IngestAnswer[], p: Phase) {
  const started = (a: IngestAnswer) => a.at - a.ms;
  return {
    kind: p.kind,
    transitionSeconds: round((p.from - p.changed) / 1000, 1),
    transitionP95: figures(answers.filter((a) => started(a) >= p.changed && started(a) < p.from)).p95,
    ...figures(answers.filter((a) => started(a) >= p.from && started(a) < p.to)),
    load1: p.load1,
    appCores: p.appCores,
    openMin: p.open.length ? Math.min(...p.open) : null,
  };
}

export async function benchSlowClients(args: Args) {
  const slow = num(args, 'slow', 500);
  const rate = num(args, 'rate', 500);
  const rounds = num(args, 'rounds', 4);
  const phaseMs = num(args, 'phase-seconds', 30) * 1000;
  const drainedInFlight = num(args, 'drained-in-flight', 4);
  const database = args.flags.get('database') ?? 'sqlite';
  const timeouts: Record<string, string> = {};
  for (const [flag, name] of [
    ['headers-timeout-ms', 'DOORWATCH_HEADERS_TIMEOUT_MS'],
    ['request-timeout-ms', 'DOORWATCH_REQUEST_TIMEOUT_MS'],
    ['keep-alive-timeout-ms', 'DOORWATCH_KEEP_ALIVE_TIMEOUT_MS'],
  ])
    if (args.flags.has(flag)) timeouts[name] = String(num(args, flag, 1));
  const sqlite = database === 'sqlite' ? tempSqliteUrl() : null;
  const pgName = `dw_bench_slow_${process.pid}`;
  const databaseUrl = sqlite ? sqlite.url : await createPgDatabase(pgName);
  const secrets = soakServers(4, generateSecret);
  const app = await startDoorwatchProcess({
    env: {
      DATABASE_URL: databaseUrl,
      DOORWATCH_SERVERS: [...secrets].map(([n, s]) => `${n}=${s}`).join(','),
      DOORWATCH_INGEST_RATE: '10000000',
      DOORWATCH_INGEST_BURST: '10000000',
      ...timeouts,
    },
  });
  const phases: Phase[] = [];
  const load = startIngestLoad({ url: app.url, secrets, rate, prefix: 'b' });
  let openedInAll = 0;
  let held: ReturnType<typeof slowConnectionsProcess> | null = null;
  try {
    await sleep(10_000); // warm-up: routes compiled, secrets cached
    for (let r = 0; r < rounds * 2; r++) {
      const kind = r % 2 === 0 ? 'quiet' : 'slow';
      const changed = Date.now();
      if (held) {
        openedInAll += held.opened();
        await held.close();
      }
      held = kind === 'slow' ? slowConnectionsProcess(app.url, [...secrets.keys()][0], slow) : null;
      await held?.ready;
      await drained(load, drainedInFlight);
      const from = Date.now();
      const open: number[] = [];
      const cpu0 = readCpuSeconds(app.pid);
      while (Date.now() < from + phaseMs) {
        await sleep(1000);
        if (held) open.push(held.open());
      }
      const to = Date.now();
      // CPU the app used per second of the measured part of the phase (1 = one core busy).
      const appCores = round((readCpuSeconds(app.pid) - cpu0) / ((to - from) / 1000), 2);
      phases.push({ kind, changed, from, to, open, load1: round(loadavg()[0], 2), appCores });
      log(`slow-clients ${kind} phase ${Math.floor(r / 2) + 1}: ${JSON.stringify(phaseFigures(load.answers, phases.at(-1)!))}`);
    }
  } finally {
    if (held) {
      openedInAll += held.opened();
      await held.close();
    }
    await load.stop();
    await app.stop();
    if (sqlite) cleanupSqlite(sqlite.dir);
    else await dropPgDatabase(pgName);
  }
  const startedIn = (a: IngestAnswer, from: number, to: number) => a.at - a.ms >= from && a.at - a.ms < to;
  const inPhase = (kind: string) => load.answers.filter((a) => phases.some((p) => p.kind === kind && startedIn(a, p.from, p.to)));
  const inTransition = (kind: string) => load.answers.filter((a) => phases.some((p) => p.kind === kind && startedIn(a, p.changed, p.from)));
  const quiet = figures(inPhase('quiet'));
  const loaded = figures(inPhase('slow'));
  const opens = phases.flatMap((p) => p.open);
  return {
    part: 'slow-clients',
    machine: machine(),
    database,
    rate,
    slowConnections: slow,
    timeouts: Object.keys(timeouts).length ? timeouts : 'defaults (headers 10 s, request 30 s, keep-alive 65 s)',
    phaseSeconds: phaseMs / 1000,
    rounds,
    quiet,
    slow: loaded,
    p95Ratio: round(loaded.p95 / quiet.p95, 3),
    p50Ratio: round(loaded.p50 / quiet.p50, 3),
    // Requests started while 500 connections were being opened (→ slow) or cut (→ quiet), until the backlog drained.
    transitions: { opening: figures(inTransition('slow')), closing: figures(inTransition('quiet')) },
    perPhase: phases.map((p) => phaseFigures(load.answers, p)),
    // The slow requests all name the first server: is it that server's ingest that waits, or everyone's?
    byServer: Object.fromEntries(
      [...secrets.keys()].map((name) => [
        name,
        {
          quiet: figures(inPhase('quiet').filter((a) => a.server === name)),
          slow: figures(inPhase('slow').filter((a) => a.server === name)),
        },
      ]),
    ),
    slowOpenWhileMeasured: opens.length ? { min: Math.min(...opens), max: Math.max(...opens) } : null,
    slowOpenedInAll: openedInAll,
    ingestFailed: load.failed.length,
  };
}
