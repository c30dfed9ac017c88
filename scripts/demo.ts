// npm run demo: migrate the embedded SQLite database, start Doorwatch, and (once the
// simulated fleet exists) feed it live traffic. Prints the URL to open.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ensureBuild } from './ensure-build.mjs';

async function main() {
  process.env.NEXT_TELEMETRY_DISABLED = '1';
  ensureBuild();
  const port = process.env.PORT ?? '3000';
  const app = spawn(process.execPath, [join(process.cwd(), 'node_modules/tsx/dist/cli.mjs'), 'scripts/start.ts'], {
    stdio: 'inherit',
    env: { ...process.env, PORT: port },
  });
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => app.kill(sig));
  app.on('exit', (code) => process.exit(code ?? 0));
  console.log(`\nDoorwatch demo: http://localhost:${port}\n`);
}

main().catch((err) => {
  console.error(`demo failed: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
});
