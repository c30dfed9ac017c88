import { getDb } from '@/lib/db/client';

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
    await db.sql.query('SELECT 1 AS ok');
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
