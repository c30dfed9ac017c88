'use client';
// The page's staleness (lib/ui/connection.ts) and the clock figures age by, as hooks.
import { dataClock, staleness, type Staleness } from './connection';
import { useLiveStatus } from './live-status';
import { useNow } from './use-now';
import { useUrlState } from './url-state';

export function useStaleness(): Staleness {
  const live = useLiveStatus();
  const { global } = useUrlState();
  return staleness(live, global.refresh === 'off');
}

/** useNow that stops at the last proof of currency while the page is stale. */
export function useDataNow(everyMs = 1000): number {
  return dataClock(useNow(everyMs), useStaleness());
}
