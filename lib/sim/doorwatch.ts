// Starts the real, built Doorwatch (the `npm start` path: migrations, provisioning, next start)
// on a free loopback port with a fresh SQLite database in a temp folder, and reads its query API.
// The same launch as tests/support/app-server.ts, for the experiment runner and the demo.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TStatsResponse } from '@/lib/contract/api/stats';
import type { TSessionListResponse, TSessionView } from '@/lib/contract/api/sessions';

export const SIM_ADMIN_TOKEN = 'dw_test_admin_token_0123456789abcdef';

export interface LaunchedDoorwatch {
  url: string;
  adminToken: string;
  output(): string;
  stop(): Promise<void>;
}

const root = join(__dirname, '..', '..');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export async function launchDoorwatch(options: { env?: Record<string, string>; timeoutMs?: number } = {}): Promise<LaunchedDoorwatch> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'doorwatch-sim-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: `file:${join(dir, 'doorwatch.db')}`,
    NEXT_TELEMETRY_DISABLED: '1',
    DOORWATCH_ADMIN_TOKEN: SIM_ADMIN_TOKEN,
    ...options.env,
  };
  let log = '';
  const child: ChildProcess = spawn(process.execPath, [join(root, 'node_modules/tsx/dist/cli.mjs'), join(root, 'scripts/start.ts')], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // own process group: tsx, the start script and `next start` stop together
  });
  child.stdout!.on('data', (d) => (log = (log + d).slice(-20_000)));
  child.stderr!.on('data', (d) => (log = (log + d).slice(-20_000)));
  const url = `http://127.0.0.1:${port}`;
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      /* already gone */
    }
  };
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      signalGroup('SIGTERM');
      const timer = setTimeout(() => signalGroup('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    signalGroup('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`Doorwatch exited with ${child.exitCode}:\n${log}`);
    }
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`Doorwatch did not become healthy in time:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, adminToken: SIM_ADMIN_TOKEN, output: () => log, stop };
}

async function getJson<T>(url: string, token: string): Promise<T> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`GET ${url} → ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

/** GET /api/v1/stats over [fromMs, toMs) (minute-aligned by Doorwatch), optionally one server. */
export function readStats(doorwatchUrl: string, token: string, q: { fromMs: number; toMs: number; server?: string }): Promise<TStatsResponse> {
  const params = new URLSearchParams({ from: String(q.fromMs), to: String(q.toMs) });
  if (q.server) params.set('server', q.server);
  return getJson<TStatsResponse>(`${doorwatchUrl}/api/v1/stats?${params}`, token);
}

/** Every session matching the filters, following the cursor. */
export async function listAllSessions(
  doorwatchUrl: string,
  token: string,
  q: { flags?: string[]; server?: string },
): Promise<TSessionView[]> {
  const out: TSessionView[] = [];
  let cursor: string | null = null;
  do {
    const params = new URLSearchParams({ limit: '500' });
    for (const f of q.flags ?? []) params.append('flag', f);
    if (q.server) params.set('server', q.server);
    if (cursor) params.set('cursor', cursor);
    const page: TSessionListResponse = await getJson<TSessionListResponse>(`${doorwatchUrl}/api/v1/sessions?${params}`, token);
    out.push(...page.sessions);
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}
