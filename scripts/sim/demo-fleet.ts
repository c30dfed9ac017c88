// The demo's fleet: two refusing servers and one naive one, clients that open, upgrade, drop and
// resume at a rate that shows a newcomer live numbers (boundary entries, refusals,
// renegotiations, deadlocks) within a minute. The idle timeout is compressed to 20 s so the naive
// server's deadlocks visibly start (flagged once older than Doorwatch's threshold, 10 s by
// default) and end.
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

export const DEMO_FLEET_DEFAULTS = {
  clientsPerServer: 8,
  idleTimeoutMs: 20_000,
  messageIntervalMs: 1000,
  // A session streams 5–15 s before the server offers the upgrade.
  upgradeAfterMs: [5_000, 15_000],
  windowMs: [60, 140],
  thinkMs: [1_000, 4_000],
  websocketHoldMs: [2_000, 6_000],
  rampMs: 5_000,
  // 0.1 random resets per second of live SSE connection, and one upgrade in eight reset
  // 40–90 ms after upgrade-accepted: a few boundary entries per server and minute.
  resets: { ratePerSec: 0.1, afterUpgrade: { share: 0.125, delayMs: [40, 90] } },
} satisfies Partial<FleetOptions>;

export function startDemoFleet(options: { doorwatchUrl: string; servers?: FleetServerSpec[] } & Partial<FleetOptions>): Promise<Fleet> {
  const { servers = demoFleetServers(), ...rest } = options;
  return startFleet({ ...DEMO_FLEET_DEFAULTS, ...rest, servers });
}
