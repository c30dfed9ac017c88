// The demo's fleet: two refusing servers and one naive one, clients that open, upgrade, drop and
// resume at a rate that shows a newcomer live numbers (boundary entries, refusals,
// renegotiations, deadlocks) within a minute, and every default alert rule firing and resolving
// within five minutes (docs/demo.md):
// - the naive server has trouble in episodes: resets only in the first 40 s of every 180 s, so its
//   naive resumes and dual negotiations stop long enough for their rules to resolve;
// - the idle timeout is 70 s, so a deadlock is ongoing (flagged once older than Doorwatch's
//   threshold, 10 s by default) for 60 s: longer than the "Ongoing deadlock" rule's 30 s hold plus
//   one evaluation interval (15 s), so that rule fires for every deadlock episode and never
//   goes pending only to clear;
// - half the reconnects at the boundary come without Last-Event-ID (dual negotiations on the naive
//   server), so each episode shows both of its failure variants;
// - the server offers the upgrade 2–4 s after opening, so a door probe's step (opening, and for a
//   refused resume a renegotiated session too) reaches the door within the probe's step deadline.
import { generateSecret } from '@/lib/contract/server-secret';
import { startFleet, type Fleet, type FleetOptions, type FleetServerSpec } from './fleet';

/** Fresh secrets for the three demo servers (register them with `serversEnv`). */
export function demoFleetServers(): FleetServerSpec[] {
  return [
    { name: 'demo-eu-1', secret: generateSecret(), mode: 'refusing' },
    { name: 'demo-eu-2', secret: generateSecret(), mode: 'refusing' },
    { name: 'demo-us-1', secret: generateSecret(), mode: 'naive' },
  ];
}

/** The DOORWATCH_SERVERS value that registers these servers at Doorwatch's start. */
export function serversEnv(servers: readonly FleetServerSpec[]): string {
  return servers.map((s) => `${s.name}=${s.secret}`).join(',');
}

/** The naive server's trouble: resets only during the first `troubleMs` of every `periodMs` since the fleet started. */
export const DEMO_EPISODES = { periodMs: 180_000, troubleMs: 40_000 };

export const DEMO_FLEET_DEFAULTS = {
  clientsPerServer: 8,
  idleTimeoutMs: 70_000,
  messageIntervalMs: 1000,
  // A session streams 2–4 s before the server offers the upgrade.
  upgradeAfterMs: [2_000, 4_000],
  windowMs: [60, 140],
  noLastEventIdShare: 0.5,
  thinkMs: [1_000, 4_000],
  websocketHoldMs: [2_000, 6_000],
  rampMs: 5_000,
  // 0.1 random resets per second of live SSE connection, and one upgrade in five reset
  // 40–90 ms after upgrade-accepted: several boundary entries per server and minute (the naive
  // server's only during its trouble episodes).
  resets: { ratePerSec: 0.1, afterUpgrade: { share: 0.2, delayMs: [40, 90] } },
} satisfies Partial<FleetOptions>;

/** Whether the naive servers are in a trouble episode `elapsedMs` after the fleet started (refusing ones always are). */
export function inTroubleEpisode(elapsedMs: number, episodes = DEMO_EPISODES): boolean {
  return elapsedMs % episodes.periodMs < episodes.troubleMs;
}

export function startDemoFleet(options: { doorwatchUrl: string; servers?: FleetServerSpec[] } & Partial<FleetOptions>): Promise<Fleet> {
  const { servers = demoFleetServers(), ...rest } = options;
  const startedAt = Date.now();
  const naive = new Set(servers.filter((s) => s.mode === 'naive').map((s) => s.name));
  const resetsOn = (server: string) => !naive.has(server) || inTroubleEpisode(Date.now() - startedAt);
  return startFleet({ ...DEMO_FLEET_DEFAULTS, resetsOn, ...rest, servers });
}
