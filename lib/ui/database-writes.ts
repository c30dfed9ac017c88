'use client';
// Whether the database refuses writes (its disk is full), from /api/health, for the shell's banner.
// Polled with a plain fetch, not a query of the cache: a health answer proves nothing about the
// data on screen, and the data-age indicator counts every successful query as proof of currency.
// An unreachable database is not reported here: the data-age indicator already turns amber when
// the page's own fetches fail.
import { onlineManager } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ZHealthResponse } from '@/lib/contract/api/health';

/** Often enough to show up within a refresh or two; health is one cheap read. */
export const DATABASE_WRITES_POLL_MS = 10_000;

export interface WriteRefusalView {
  code: 'database_full';
  since: string;
}

async function readRefusal(signal: AbortSignal): Promise<WriteRefusalView | null> {
  const res = await fetch('/api/health', { headers: { accept: 'application/json' }, signal });
  const health = ZHealthResponse.safeParse(await res.json());
  if (!health.success || !health.data.database.reachable) return null;
  const e = health.data.database.writeError;
  return e ? { code: e.code, since: e.since } : null;
}

/** The standing write refusal, or null (also while health cannot be read: other signals cover that). */
export function useDatabaseWriteRefusal(): WriteRefusalView | null {
  const [refusal, setRefusal] = useState<WriteRefusalView | null>(null);
  useEffect(() => {
    const aborter = new AbortController();
    const poll = () =>
      readRefusal(aborter.signal).then(setRefusal, () => {
        /* unreadable health: keep the last answer */
      });
    void poll();
    // Holds still with the page's queries while the live probe finds Doorwatch unreachable.
    const timer = setInterval(() => void (onlineManager.isOnline() && poll()), DATABASE_WRITES_POLL_MS);
    return () => {
      clearInterval(timer);
      aborter.abort();
    };
  }, []);
  return refusal;
}
