// A fleet of reference servers and clients with a fault injector, reporting to Doorwatch.
// Used by the demo (`startFleet` with realistic rates), the experiment runner and the e2e tests.
import { createReporter, type Reporter, type ReporterError, type ReporterOptions } from '@doorwatch/reporter';
import { SimClient } from './client';
import { FaultInjector, ResetSchedule, type InjectorCounts, type ResetScheduleOptions } from '@/lib/wire/injector';
import { Ledger, type FleetFigures } from './ledger';
import { createRng, drawMs, type MsRange } from '@/lib/wire/random';
import { startSimServer, type ServerMode, type SimServer } from './server';

export interface FleetServerSpec {
  name: string;
  /** The server's `whsec_...` secret as registered in Doorwatch. */
  secret: string;
  mode: ServerMode;
}

export interface FleetOptions {
  /** Doorwatch base URL; null runs the fleet without reporting (unit use). */
  doorwatchUrl: string | null;
  servers: FleetServerSpec[];
  clientsPerServer: number;
  seed?: number;
  /** Server idle timeout. Default 20 s (demo: deadlocks end visibly). */
  idleTimeoutMs?: number;
  /** Ordinary SSE message interval. Default 500 ms. */
  messageIntervalMs?: number;
  /** SSE life of a session before the server offers the upgrade. Default 20–40 s. */
  upgradeAfterMs?: MsRange;
  /** Client wait between upgrade-accepted and its HTTP Upgrade (the boundary window). Default 60–140 ms. */
  windowMs?: MsRange;
  /** Client wait after a drop before resuming. Default 20–60 ms. */
  reconnectDelayMs?: MsRange;
  /** Client wait after session-superseded before opening the new session. Default 5–40 ms. */
  renegotiateDelayMs?: MsRange;
  /** Share of reconnects without Last-Event-ID. Default 0.25. */
  noLastEventIdShare?: number;
  /** Pause between sessions of one client. Default 200–1000 ms. */
  thinkMs?: MsRange;
  /** WebSocket life before the client closes it. Default 100–400 ms. */
  websocketHoldMs?: MsRange;
  /** Clients start spread over this long. Default 2 s. */
  rampMs?: number;
  /** Fault injection. Default: 1 random reset per second of live SSE connection. */
  resets?: ResetScheduleOptions & { max?: number };
  /** Whether resets are injected into the sessions of this server's clients right now (default: always); the demo's episodes. */
  resetsOn?: (server: string) => boolean;
  /** Renegotiate on any server of the same mode (default) or only on the same server. */
  renegotiateAcrossServers?: boolean;
  /** Extra reporter options (flush interval, timeouts). */
  reporter?: Partial<Omit<ReporterOptions, 'url' | 'server' | 'secret'>>;
  /** Per-reset callback (progress). */
  onReset?: (counts: InjectorCounts) => void;
}

export interface Fleet {
  servers: SimServer[];
  ledger: Ledger;
  injector: FaultInjector;
  /** Resolves when the injector has applied `resets.max` resets (never without a max). */
  resetsDone: Promise<void>;
  /** The fleet's own figures: all servers, or the named ones. */
  figures(servers?: readonly string[]): FleetFigures;
  /** Reporter delivery problems (should be empty). */
  reporterErrors: string[];
  reporterStats(): Record<string, ReturnType<Reporter['stats']>>;
  /**
   * Stops injecting, drains every client (healthy sessions are closed, upgrades finish,
   * deadlocked sessions run to the idle timeout), flushes and closes the reporters, closes the
   * servers. Idempotent.
   */
  /** Ends the fleet. `graceMs`: how long sessions may drain before they are cut (default: one idle timeout plus 10 s, so deadlocks end on their own). */
  stop(options?: { graceMs?: number }): Promise<void>;
}

export async function startFleet(options: FleetOptions): Promise<Fleet> {
  const rng = createRng(options.seed ?? Date.now() & 0x7fffffff);
  const ledger = new Ledger();
  const reporterErrors: string[] = [];
  const reporters = new Map<string, Reporter>();
  const idleTimeoutMs = options.idleTimeoutMs ?? 20_000;
  const upgradeAfterMs = options.upgradeAfterMs ?? [20_000, 40_000];
  let resetsDoneResolve!: () => void;
  const resetsDone = new Promise<void>((resolve) => (resetsDoneResolve = resolve));
  const max = options.resets?.max;
  const injector = new FaultInjector(new ResetSchedule(options.resets ?? { ratePerSec: 1 }, rng), {
    maxResets: max,
    onReset: (counts) => {
      ledger.resets = counts.resets;
      options.onReset?.(counts);
      if (max !== undefined && counts.resets >= max) resetsDoneResolve();
    },
  });
  if (max === 0) {
    injector.stop();
    resetsDoneResolve();
  }
  const byToken = new Map<string, SimClient>();

  const servers: SimServer[] = [];
  for (const spec of options.servers) {
    let reporter: Reporter | null = null;
    if (options.doorwatchUrl) {
      reporter = createReporter({
        url: options.doorwatchUrl,
        server: spec.name,
        secret: spec.secret,
        flushIntervalMs: 200,
        maxBufferedEvents: 100_000,
        baseBackoffMs: 200,
        ...options.reporter,
        onError: (err: ReporterError) => reporterErrors.push(`${spec.name}: ${err.code}: ${err.message}`),
        onDrop: (info) => reporterErrors.push(`${spec.name}: dropped ${info.count} (${info.reason})`),
      });
      reporters.set(spec.name, reporter);
    }
    servers.push(
      await startSimServer({
        name: spec.name,
        mode: spec.mode,
        reporter,
        ledger,
        idleTimeoutMs,
        messageIntervalMs: options.messageIntervalMs,
        upgradeAfterMs: () => drawMs(rng, upgradeAfterMs),
        onUpgradeWritten: (token) => {
          const client = byToken.get(token);
          if (client) injector.upgradeWritten(client);
        },
      }),
    );
  }

  const clients: SimClient[] = [];
  const tokenOf = new Map<SimClient, string>();
  for (const server of servers) {
    const peers = options.renegotiateAcrossServers === false ? [server] : servers.filter((s) => s.mode === server.mode);
    for (let i = 0; i < options.clientsPerServer; i++) {
      const client = new SimClient({
        server: () => server.url,
        renegotiateTo: () => peers[Math.floor(rng() * peers.length)].url,
        rng,
        ledger,
        injector,
        windowMs: options.windowMs ?? [60, 140],
        reconnectDelayMs: options.reconnectDelayMs ?? [20, 60],
        renegotiateDelayMs: options.renegotiateDelayMs ?? [5, 40],
        noLastEventIdShare: options.noLastEventIdShare ?? 0.25,
        thinkMs: options.thinkMs ?? [200, 1000],
        websocketHoldMs: options.websocketHoldMs ?? [100, 400],
        resetsOn: options.resetsOn ? () => options.resetsOn!(server.name) : undefined,
        onToken: (c, token) => {
          const old = tokenOf.get(c);
          if (old) byToken.delete(old);
          if (token) {
            tokenOf.set(c, token);
            byToken.set(token, c);
          } else tokenOf.delete(c);
        },
      });
      clients.push(client);
    }
  }
  const rampMs = options.rampMs ?? 2000;
  const startTimers = clients.map((c) => setTimeout(() => c.start(), Math.floor(rng() * rampMs)));

  let stopping: Promise<void> | null = null;
  async function stop(graceMs?: number): Promise<void> {
    injector.stop();
    startTimers.forEach(clearTimeout);
    // Deadlocked sessions need up to one idle timeout to end; by default give them that plus slack.
    const deadline = graceMs ?? idleTimeoutMs + 10_000;
    let timer: NodeJS.Timeout | undefined;
    const drained = Promise.all(clients.map((c) => c.stop()));
    await Promise.race([drained, new Promise((r) => (timer = setTimeout(r, deadline)))]);
    clearTimeout(timer);
    for (const c of clients) if (c.phase !== 'closed') c.kill();
    await Promise.all([...reporters.values()].map((r) => r.flush()));
    for (const s of servers) await s.close();
    await Promise.all([...reporters.values()].map((r) => r.close()));
  }

  return {
    servers,
    ledger,
    injector,
    resetsDone,
    figures: (names) => ledger.figures(names),
    reporterErrors,
    reporterStats: () => Object.fromEntries([...reporters].map(([n, r]) => [n, r.stats()])),
    stop: (options) => (stopping ??= stop(options?.graceMs)),
  };
}
