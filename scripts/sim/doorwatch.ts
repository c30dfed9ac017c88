// Starts the real, built Doorwatch (the `npm start` path: migrations, provisioning, then serving)
// on a free loopback port with a fresh SQLite database in a temp folder, and reads its query API.
// The same launch as the test harness (scripts/launch), for the experiment runner.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDoorwatchProcess } from '@/scripts/launch/doorwatch-process';
import type { TStatsResponse } from '@/lib/contract/api/stats';
import type { TSessionListResponse, TSessionView } from '@/lib/contract/api/sessions';

export const SIM_ADMIN_TOKEN = 'dw_test_admin_token_0123456789abcdef';

export interface LaunchedDoorwatch {
  url: string;
  adminToken: string;
  output(): string;
  stop(): Promise<void>;
}

export async function launchDoorwatch(options: { env?: Record<string, string>; timeoutMs?: number } = {}): Promise<LaunchedDoorwatch> {
  const dir = mkdtempSync(join(tmpdir(), 'doorwatch-sim-'));
  try {
    const app = await startDoorwatchProcess({
      env: { DATABASE_URL: `file:${join(dir, 'doorwatch.db')}`, DOORWATCH_ADMIN_TOKEN: SIM_ADMIN_TOKEN, ...options.env },
      timeoutMs: options.timeoutMs ?? 120_000,
      maxLogChars: 20_000,
    });
    return {
      url: app.url,
      adminToken: SIM_ADMIN_TOKEN,
      output: app.output,
      async stop() {
        await app.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

async function getJson<T>(url: string, token: string): Promise<T> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`GET ${url} → ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

/** GET /api/v1/stats over [fromMs, toMs) (minute-aligned by Doorwatch), optionally one server. */
export function readStats(
  doorwatchUrl: string,
  token: string,
  q: { fromMs: number; toMs: number; server?: string },
): Promise<TStatsResponse> {
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
