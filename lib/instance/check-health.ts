import { getDb } from '@/lib/db/client';
import { pingDatabase } from '@/lib/db/ping';

export interface Health {
  status: 'ok' | 'degraded';
  database: { provider: string; reachable: boolean; latencyMs: number | null; error?: string };
  uptimeSeconds: number;
}

/** Liveness plus a real round trip to the database (load balancers route on this). */
export async function checkHealth(): Promise<Health> {
  const db = getDb();
  const started = performance.now();
  try {
    await pingDatabase(db.sql);
    return {
      status: 'ok',
      database: { provider: db.config.provider, reachable: true, latencyMs: Math.round((performance.now() - started) * 100) / 100 },
      uptimeSeconds: Math.round(process.uptime()),
    };
  } catch (err) {
    return {
      status: 'degraded',
      database: {
        provider: db.config.provider,
        reachable: false,
        latencyMs: null,
        error: err instanceof Error ? err.message.split('\n')[0] : String(err),
      },
      uptimeSeconds: Math.round(process.uptime()),
    };
  }
}
