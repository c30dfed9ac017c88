// The demo's promise (docs/demo.md): every default alert rule fires and resolves in the first five
// minutes, and no rule goes pending only to clear. Measured by running the demo (docs/demo.md);
// this checks the arithmetic that measurement rests on, with the installed rules (read from the
// migration that creates them), the settings' defaults and the demo's own parameters, so changing
// any of them in a way that breaks the promise fails here. The episode gate is checked on the
// real fleet: resets stop for the naive server's clients outside its trouble episodes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_DEADLOCK_THRESHOLD_MS } from '@/lib/boundary/summarize';
import { ZSettings } from '@/lib/config/settings';
import { DEMO_EPISODES, DEMO_FLEET_DEFAULTS, inTroubleEpisode } from '@/scripts/sim/demo-fleet';
import { DEMO_RULE_WINDOWS } from '@/scripts/sim/demo-admin';
import { startFleet } from '@/scripts/sim/fleet';

const MIGRATION = join(__dirname, '..', '..', 'prisma/sqlite/migrations/20261201010000_alert_rules/migration.sql');

/** The installed rules: id → window and hold (ms). */
function installedRules(): Map<string, { measure: string; windowMs: number; forMs: number }> {
  const rows = new Map<string, { measure: string; windowMs: number; forMs: number }>();
  for (const m of readFileSync(MIGRATION, 'utf8').matchAll(/\('(default-[a-z-]+)', '[^']*', '([a-z_]+)', '[a-z]+', [\d.]+, (\d+), (\d+),/g))
    rows.set(m[1], { measure: m[2], windowMs: Number(m[3]), forMs: Number(m[4]) });
  return rows;
}

test('the installed rules are the three the demo is tuned for', () => {
  assert.deepEqual([...installedRules().keys()].sort(), ['default-deadlock-ongoing', 'default-dual-negotiation', 'default-naive-resume']);
  for (const [id, tune] of Object.entries(DEMO_RULE_WINDOWS)) assert.equal(installedRules().get(id)?.windowMs, tune.installed * 1000, id);
});

test('a demo deadlock is ongoing longer than the "Ongoing deadlock" hold plus one evaluation: it fires, never pending then cleared', () => {
  const rule = installedRules().get('default-deadlock-ongoing')!;
  const evalMs = ZSettings.shape.DOORWATCH_ALERT_INTERVAL_MS.parse(undefined);
  // Ongoing from the threshold until the idle timeout ends it; pending at the first evaluation
  // after the threshold (up to one interval late), firing `forMs` later.
  const ongoingMs = DEMO_FLEET_DEFAULTS.idleTimeoutMs - DEFAULT_DEADLOCK_THRESHOLD_MS;
  assert.ok(ongoingMs > rule.forMs + evalMs, `ongoing ${ongoingMs} ms vs hold ${rule.forMs} + evaluation ${evalMs}`);
});

test('every rule resolves between two trouble episodes, and the first episode starts at once', () => {
  const evalMs = ZSettings.shape.DOORWATCH_ALERT_INTERVAL_MS.parse(undefined);
  const calmMs = DEMO_EPISODES.periodMs - DEMO_EPISODES.troubleMs;
  // A count is anchored at the start of its minute (rollups), so it stays in a rule's window
  // between window − 60 s and window after it happened: at most one window after the last one it
  // has left, and for at least a minute (no resolve-and-fire-again within an episode).
  for (const [id, tune] of Object.entries(DEMO_RULE_WINDOWS)) {
    assert.ok(tune.demo * 1000 + evalMs < calmMs, `${id} resolves before the next episode`);
    assert.ok(tune.demo * 1000 - 60_000 >= 60_000, `${id} keeps a count for at least a minute`);
  }
  // The last deadlock of an episode starts by its end and ends one idle timeout later.
  assert.ok(DEMO_FLEET_DEFAULTS.idleTimeoutMs + evalMs < calmMs, 'ongoing deadlocks end before the next episode');
  // The first episode's alerts have fired and resolved within five minutes.
  const longest = Math.max(DEMO_FLEET_DEFAULTS.idleTimeoutMs, ...Object.values(DEMO_RULE_WINDOWS).map((t) => t.demo * 1000));
  assert.ok(DEMO_EPISODES.troubleMs + longest + evalMs < 300_000);
  assert.equal(inTroubleEpisode(0), true);
  assert.equal(inTroubleEpisode(DEMO_EPISODES.troubleMs), false);
  assert.equal(inTroubleEpisode(DEMO_EPISODES.periodMs + 1), true);
});

test('the episode gate: a server whose resets are off gets none while the other one is reset', { timeout: 60_000 }, async () => {
  const fleet = await startFleet({
    doorwatchUrl: null,
    servers: [
      { name: 'gated-on', secret: 'whsec_unused', mode: 'refusing' },
      { name: 'gated-off', secret: 'whsec_unused', mode: 'naive' },
    ],
    clientsPerServer: 3,
    seed: 11,
    idleTimeoutMs: 500,
    upgradeAfterMs: [50, 100],
    websocketHoldMs: [20, 40],
    thinkMs: [10, 30],
    rampMs: 10,
    resets: { ratePerSec: 20, afterUpgrade: { share: 1, delayMs: [5, 10] } },
    resetsOn: (server) => server !== 'gated-off',
  });
  try {
    // Wait on the condition: the open server was reset several times, the gated one had as many chances.
    const done = () => {
      const off = fleet.figures(['gated-off']);
      return fleet.figures(['gated-on']).drops >= 5 && (off.sessions >= 10 || off.drops > 0);
    };
    while (!done()) await new Promise((r) => setTimeout(r, 20));
    assert.equal(fleet.figures(['gated-off']).drops, 0);
  } finally {
    await fleet.stop({ graceMs: 1_000 });
  }
});
