// The global view state of a URL (range, refresh, tz, server filter), without React: the browser's
// useUrlState (lib/ui/url-state.ts) and the server's first render read it the same way.
import { DEFAULT_RANGE } from '@/lib/time/range';
import type { TimeZoneMode } from './format';

export const GLOBAL_PARAMS = ['from', 'to', 'refresh', 'tz', 'server'] as const;

/** 'live' (the default, no parameter): pushed changes over /api/v1/changes, interval refresh only as a fallback. */
export type RefreshMode = 'live' | 'off' | '5s' | '30s';
export const REFRESH_MODES: readonly RefreshMode[] = ['live', '5s', '30s', 'off'];
export const REFRESH_MS: Record<RefreshMode, number | false> = { live: false, off: false, '5s': 5000, '30s': 30000 };

export interface GlobalState {
  from: string;
  to: string;
  refresh: RefreshMode;
  tz: TimeZoneMode;
  server: string;
}

export function readGlobal(sp: URLSearchParams | { get(name: string): string | null }): GlobalState {
  const refresh = sp.get('refresh');
  return {
    from: sp.get('from') || DEFAULT_RANGE.from,
    to: sp.get('to') || DEFAULT_RANGE.to,
    refresh: refresh === '5s' || refresh === '30s' || refresh === 'off' ? refresh : 'live',
    tz: sp.get('tz') === 'utc' ? 'utc' : 'local',
    server: sp.get('server') ?? '',
  };
}
