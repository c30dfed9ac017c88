// The experiment of the design note, rerun against a real Doorwatch: N injected TCP resets into
// a fleet of reference clients talking to one reference server (refusing or naive), with
// compressed timeouts. The fleet's own figures are compared with what Doorwatch's stats API reports.
import { generateSecret } from '@/lib/contract/server-secret';
import type { TStatsResponse } from '@/lib/contract/api/stats';
import { launchDoorwatch, readStats, SIM_ADMIN_TOKEN } from './doorwatch';
import { startFleet, type FleetOptions } from './fleet';
import type { FleetFigures } from './ledger';
import type { ServerMode } from './server';

export interface ExperimentOptions {
  modes: ServerMode[];
  /** Resets to inject per mode. */
  resets: number;
  /** Concurrent clients. Default 80. */
  concurrency?: number;
  seed?: number;
  /** Compressed idle timeout. Default 2 s. */
  idleTimeoutMs?: number;
  /** Doorwatch's deadlock threshold for the run. Default 1 s (below the idle timeout). */
  deadlockThresholdMs?: number;
  /** Use this running Doorwatch (servers must be registered) instead of launching one. */
  doorwatch?: { url: string; adminToken: string; secrets: Partial<Record<ServerMode, string>> };
  /** Fleet overrides (rates, windows, session life). */
  fleet?: Partial<Omit<FleetOptions, 'doorwatchUrl' | 'servers' | 'clientsPerServer'>>;
  log?: (line: string) => void;
}

/** The figures the experiment reports, as the fleet counted them or as Doorwatch read them back. */
export type ExperimentFigures = Pick<
  FleetFigures,
  | 'resets'
  | 'boundary'
  | 'deadlocks'
  | 'dualNegotiations'
  | 'renegotiations'
  | 'renegotiationRate'
  | 'renegotiationMs'
  | 'under200ms'
  | 'refusalLatencyMs'
>;

export interface ExperimentResult extends ExperimentFigures {
  mode: ServerMode;
  server: string;
  doorwatch: ExperimentFigures;
  /** Field paths where the fleet and Doorwatch differ (empty = exact agreement). */
  mismatches: string[];
  /** Client-side observations and consistency checks. */
  details: {
    durationMs: number;
    sessions: number;
    refused: number;
    naiveResumes: number;
    idleDeadlocks: number;
    dualDeadlocks: number;
    clientRenegotiations: number;
    clientDeadlocks: number;
    clientConflicts: number;
    boundaryShare: number;
    lostSessions: number;
    anomalies: string[];
    reporterErrors: string[];
    ongoingDeadlocksInDoorwatch: number;
  };
}

export function pickFigures(f: FleetFigures): ExperimentFigures {
  return {
    resets: f.resets,
    boundary: f.boundary,
    deadlocks: f.deadlocks,
    dualNegotiations: f.dualNegotiations,
    renegotiations: f.renegotiations,
    renegotiationRate: f.renegotiationRate,
    renegotiationMs: f.renegotiationMs,
    under200ms: f.under200ms,
    refusalLatencyMs: f.refusalLatencyMs,
  };
}

export function figuresFromStats(s: TStatsResponse): ExperimentFigures {
  return {
    resets: s.drops,
    boundary: s.boundary,
    deadlocks: s.deadlocks.total,
    dualNegotiations: s.dualNegotiations,
    renegotiations: s.renegotiations.count,
    renegotiationRate: s.renegotiations.rate,
    renegotiationMs: s.renegotiations.latencyMs,
    under200ms: s.renegotiations.under200ms,
    refusalLatencyMs: { p50: s.refusalLatencyMs.p50, p95: s.refusalLatencyMs.p95 },
  };
}

export function compareFigures(a: ExperimentFigures, b: ExperimentFigures, prefix = ''): string[] {
  const out: string[] = [];
  for (const key of Object.keys(a) as (keyof ExperimentFigures)[]) {
    const x = a[key];
    const y = b[key];
    if (x !== null && typeof x === 'object') out.push(...compareFigures(x as never, y as never, `${prefix}${key}.`));
    else if (x !== y) out.push(`${prefix}${key}: fleet ${x} ≠ doorwatch ${y}`);
  }
  return out;
}

export async function runExperiment(options: ExperimentOptions): Promise<ExperimentResult[]> {
  const log = options.log ?? (() => {});
  const idleTimeoutMs = options.idleTimeoutMs ?? 2000;
  const secrets: Partial<Record<ServerMode, string>> = options.doorwatch?.secrets ?? {};
  let launched: Awaited<ReturnType<typeof launchDoorwatch>> | null = null;
  if (!options.doorwatch) {
    for (const m of options.modes) secrets[m] = generateSecret();
    log('starting Doorwatch (fresh SQLite database) ...');
    launched = await launchDoorwatch({
      env: {
        DOORWATCH_SERVERS: options.modes.map((m) => `sim-${m}=${secrets[m]}`).join(','),
        DOORWATCH_DEADLOCK_THRESHOLD_MS: String(options.deadlockThresholdMs ?? 1000),
      },
    });
    log(`Doorwatch at ${launched.url}`);
  }
  const url = options.doorwatch?.url ?? launched!.url;
  const adminToken = options.doorwatch?.adminToken ?? SIM_ADMIN_TOKEN;
  const results: ExperimentResult[] = [];
  try {
    for (const mode of options.modes) {
      const server = `sim-${mode}`;
      const t0 = Date.now();
      let lastLog = t0;
      const fleet = await startFleet({
        idleTimeoutMs,
        upgradeAfterMs: [20_000, 40_000],
        ...options.fleet,
        seed: options.seed,
        doorwatchUrl: url,
        servers: [{ name: server, secret: secrets[mode]!, mode }],
        clientsPerServer: options.concurrency ?? 80,
        resets: { ratePerSec: 1, ...options.fleet?.resets, max: options.resets },
        onReset: (c) => {
          if (Date.now() - lastLog >= 10_000) {
            lastLog = Date.now();
            log(`  ${mode}: ${c.resets}/${options.resets} resets, ${Math.round((Date.now() - t0) / 1000)} s`);
          }
        },
      });
      log(`${mode}: ${options.concurrency ?? 80} clients, injecting ${options.resets} resets ...`);
      await fleet.resetsDone;
      log(
        `${mode}: resets done after ${Math.round((Date.now() - t0) / 1000)} s; draining (deadlocks run to the ${idleTimeoutMs} ms idle timeout) ...`,
      );
      await fleet.stop();
      const fleetFigures = fleet.figures([server]);
      fleetFigures.resets = fleet.injector.counts.resets;
      fleetFigures.renegotiationRate = fleetFigures.resets === 0 ? null : fleetFigures.renegotiations / fleetFigures.resets;
      const stats = await readStats(url, adminToken, { fromMs: t0 - 60_000, toMs: Date.now() + 60_000, server });
      const own = pickFigures(fleetFigures);
      const dw = figuresFromStats(stats);
      const c = fleet.ledger.client;
      const mismatches = compareFigures(own, dw);
      if (fleetFigures.drops !== fleetFigures.resets)
        mismatches.push(`drops seen by the server ${fleetFigures.drops} ≠ resets ${fleetFigures.resets}`);
      if (c.deadlocks !== fleetFigures.deadlocks)
        mismatches.push(`client-observed deadlocks ${c.deadlocks} ≠ server ledger ${fleetFigures.deadlocks}`);
      if (c.renegotiations !== fleetFigures.renegotiations)
        mismatches.push(`client renegotiations ${c.renegotiations} ≠ server ledger ${fleetFigures.renegotiations}`);
      results.push({
        mode,
        server,
        ...own,
        doorwatch: dw,
        mismatches,
        details: {
          durationMs: Date.now() - t0,
          sessions: fleetFigures.sessions,
          refused: fleetFigures.refused,
          naiveResumes: fleetFigures.naiveResumes,
          idleDeadlocks: c.idleDeadlocks,
          dualDeadlocks: c.dualDeadlocks,
          clientRenegotiations: c.renegotiations,
          clientDeadlocks: c.deadlocks,
          clientConflicts: c.dualRejections,
          boundaryShare: own.resets === 0 ? 0 : own.boundary / own.resets,
          lostSessions: c.lost,
          anomalies: fleet.ledger.anomalies.slice(0, 20),
          reporterErrors: fleet.reporterErrors.slice(0, 20),
          ongoingDeadlocksInDoorwatch: stats.deadlocks.ongoing,
        },
      });
    }
  } finally {
    await launched?.stop();
  }
  return results;
}

const fmt = (v: number | null, unit = '') => (v === null ? '—' : `${v}${unit}`);
const pct = (v: number | null) => (v === null ? '—' : `${(v * 100).toFixed(2)}%`);

/** A plain-text table: one block per mode, fleet and Doorwatch side by side. */
export function formatResults(results: readonly ExperimentResult[]): string {
  const lines: string[] = [];
  for (const r of results) {
    const d = r.doorwatch;
    const rows: [string, string, string][] = [
      ['injected resets (Doorwatch: drops)', fmt(r.resets), fmt(d.resets)],
      ['boundary entries', `${r.boundary} (${pct(r.details.boundaryShare)} of resets)`, fmt(d.boundary)],
      ['deadlocks', fmt(r.deadlocks), fmt(d.deadlocks)],
      ['dual negotiations', fmt(r.dualNegotiations), fmt(d.dualNegotiations)],
      ['forced renegotiations', `${r.renegotiations} (${pct(r.renegotiationRate)})`, `${d.renegotiations} (${pct(d.renegotiationRate)})`],
      [
        'renegotiation p50 / p95 / max',
        `${fmt(r.renegotiationMs.p50)} / ${fmt(r.renegotiationMs.p95)} / ${fmt(r.renegotiationMs.max, ' ms')}`,
        `${fmt(d.renegotiationMs.p50)} / ${fmt(d.renegotiationMs.p95)} / ${fmt(d.renegotiationMs.max, ' ms')}`,
      ],
      ['renegotiations ≤ 200 ms', `${r.under200ms}/${r.renegotiations}`, `${d.under200ms}/${d.renegotiations}`],
      [
        'refusal latency p50 / p95',
        `${fmt(r.refusalLatencyMs.p50)} / ${fmt(r.refusalLatencyMs.p95, ' ms')}`,
        `${fmt(d.refusalLatencyMs.p50)} / ${fmt(d.refusalLatencyMs.p95, ' ms')}`,
      ],
    ];
    const w0 = Math.max(...rows.map((x) => x[0].length));
    const w1 = Math.max(5, ...rows.map((x) => x[1].length));
    lines.push(`mode ${r.mode} (server ${r.server}, ${Math.round(r.details.durationMs / 1000)} s, ${r.details.sessions} sessions)`);
    lines.push(`  ${'figure'.padEnd(w0)}  ${'fleet'.padEnd(w1)}  doorwatch`);
    for (const [a, b, c] of rows) lines.push(`  ${a.padEnd(w0)}  ${b.padEnd(w1)}  ${c}`);
    if (r.mode === 'naive')
      lines.push(
        `  deadlocks by variant (client-observed): ${r.details.idleDeadlocks} idle-stream, ${r.details.dualDeadlocks} after a 409`,
      );
    lines.push(r.mismatches.length === 0 ? '  agreement: exact' : `  MISMATCH:\n    ${r.mismatches.join('\n    ')}`);
    for (const a of [...r.details.anomalies, ...r.details.reporterErrors]) lines.push(`  problem: ${a}`);
    lines.push('');
  }
  return lines.join('\n');
}
