import { getDb } from '@/lib/db/client';
import { pingDatabase } from '@/lib/db/ping';
import { writeRefusal } from '@/lib/db/write-refusal';
import type { z } from 'zod';
import type { ZHealthResponse } from '@/lib/contract/api/health';

export type Health = z.infer<typeof ZHealthResponse>;

const FULL_MESSAGE = "the database's disk is full: ingest is refused (503 database_full) until disk space is freed; reads still work";

/**
 * Liveness plus a real round trip to the database (load balancers route on this). A ping reads,
 * and reads work on a full disk: whether writes are refused comes from the write path.
 */
export async function checkHealth(): Promise<Health> {
  const db = getDb();
  const started = performance.now();
  try {
    await pingDatabase(db.sql);
    const refusal = writeRefusal();
    const latencyMs = Math.round((performance.now() - started) * 100) / 100;
    return {
      status: refusal ? 'degraded' : 'ok',
      database: {
        provider: db.config.provider,
        reachable: true,
        latencyMs,
        writable: refusal === null,
        ...(refusal ? { writeError: { code: refusal.code, since: new Date(refusal.since).toISOString(), message: FULL_MESSAGE } } : {}),
      },
      uptimeSeconds: Math.round(process.uptime()),
    };
  } catch (err) {
    return {
      status: 'degraded',
      database: {
        provider: db.config.provider,
        reachable: false,
        latencyMs: null,
        writable: false,
        error: err instanceof Error ? err.message.split('\n')[0] : String(err),
      },
      uptimeSeconds: Math.round(process.uptime()),
    };
  }
}
