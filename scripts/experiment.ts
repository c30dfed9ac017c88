// npm run experiment -- --resets 12000 --mode refusing|naive|both [--json] [--concurrency 80] [--seed 1]
// Starts Doorwatch (built app, free port, fresh SQLite), runs the simulated fleet with compressed
// timeouts, prints the fleet's figures next to Doorwatch's (they must agree exactly).
import { parseArgs } from 'node:util';
import { ensureBuild } from './ensure-build.mjs';
import { formatResults, runExperiment } from '@/scripts/sim/experiment';
import type { ServerMode } from '@/scripts/sim/server';

async function main() {
  const { values } = parseArgs({
    options: {
      resets: { type: 'string', default: '12000' },
      mode: { type: 'string', default: 'refusing' },
      json: { type: 'boolean', default: false },
      concurrency: { type: 'string' },
      seed: { type: 'string' },
      'idle-timeout-ms': { type: 'string' },
      'targeted-share': { type: 'string' },
    },
  });
  const modes: ServerMode[] = values.mode === 'both' ? ['refusing', 'naive'] : [values.mode as ServerMode];
  if (!modes.every((m) => m === 'refusing' || m === 'naive')) throw new Error('--mode must be refusing, naive or both');
  const resets = Number(values.resets);
  if (!Number.isInteger(resets) || resets < 1) throw new Error('--resets must be a positive integer');
  process.env.NEXT_TELEMETRY_DISABLED = '1';
  // ensureBuild reports a rebuild on stdout; keep stdout for the results (--json).
  const log = console.log;
  console.log = console.error;
  try {
    ensureBuild({ quiet: true });
  } finally {
    console.log = log;
  }
  const targeted = values['targeted-share'] ? Number(values['targeted-share']) : 0;
  const results = await runExperiment({
    modes,
    resets,
    concurrency: values.concurrency ? Number(values.concurrency) : undefined,
    seed: values.seed ? Number(values.seed) : undefined,
    idleTimeoutMs: values['idle-timeout-ms'] ? Number(values['idle-timeout-ms']) : undefined,
    fleet: targeted > 0 ? { resets: { ratePerSec: 1, afterUpgrade: { share: targeted, delayMs: [40, 90] } } } : undefined,
    log: (line) => console.error(line),
  });
  if (values.json) {
    const out = results.map(({ details: _d, server: _s, mismatches, ...r }) => ({ ...r, agree: mismatches.length === 0, mismatches }));
    console.log(JSON.stringify(out.length === 1 ? out[0] : out, null, 2));
  } else {
    console.log(formatResults(results));
  }
  process.exit(results.every((r) => r.mismatches.length === 0) ? 0 : 2);
}

main().catch((err) => {
  console.error(`experiment failed: ${err instanceof Error ? err.stack : err}`);
  process.exit(1);
});
