'use client';
// The page's end of /api/v1/changes: an EventSource that invalidates only the queries a change
// affects, and the data-age indicator in the top bar. When the stream breaks, lib/ui/queries.ts
// falls back to interval refresh (FALLBACK_REFRESH_MS) and the indicator says so.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ZChange } from '@/lib/live/change';
import { dataAgeTone } from '@/lib/ui/data-age';
import { fmtTime, type TimeZoneMode } from '@/lib/ui/format';
import { isAffected } from '@/lib/ui/live-invalidation';
import { setLiveStatus, useLiveStatus } from '@/lib/ui/live-status';
import { FALLBACK_REFRESH_MS } from '@/lib/ui/queries';
import { useNow } from '@/lib/ui/use-now';
import type { RefreshMode } from '@/lib/ui/global-params';

/** After the browser gives up on an EventSource (e.g. a 401 or a non-stream answer), try again this often. */
const REOPEN_MS = 5000;

export function useLiveUpdates(refresh: RefreshMode): void {
  const client = useQueryClient();

  // Every successful fetch proves its data current; a failed one is remembered for the indicator.
  useEffect(
    () =>
      client.getQueryCache().subscribe((e) => {
        if (e.type !== 'updated') return;
        if (e.action.type === 'success') setLiveStatus({ freshAt: Date.now(), lastFetchFailed: false });
        else if (e.action.type === 'error') setLiveStatus({ lastFetchFailed: true });
      }),
    [client],
  );

  useEffect(() => {
    if (refresh !== 'live') {
      setLiveStatus({ stream: 'down' });
      return;
    }
    let source: EventSource | null = null;
    let reopen: ReturnType<typeof setTimeout> | null = null;
    let disposed = false;
    const alive = () => setLiveStatus({ stream: 'open', freshAt: Date.now() });
    const open = () => {
      if (disposed) return;
      setLiveStatus({ stream: 'connecting' });
      const es = new EventSource('/api/v1/changes');
      source = es;
      es.addEventListener('ready', () => {
        // Whatever happened while the stream was away is unknown: refetch what is on screen.
        if (source === es) void client.invalidateQueries({ predicate: (q) => q.queryKey[0] === 'doorwatch' && q.queryKey[1] !== 'me' });
        alive();
      });
      es.addEventListener('heartbeat', alive);
      es.addEventListener('change', (msg) => {
        alive();
        let data: unknown;
        try {
          data = JSON.parse((msg as MessageEvent<string>).data);
        } catch {
          return;
        }
        const change = ZChange.safeParse(data);
        if (!change.success) return;
        void client.invalidateQueries({ predicate: (q) => isAffected(change.data, q.queryKey) });
      });
      es.onerror = () => {
        setLiveStatus({ stream: 'down' });
        // CONNECTING: the browser retries by itself; CLOSED: it gave up, so reopen later.
        if (es.readyState === EventSource.CLOSED && !disposed) {
          es.close();
          reopen = setTimeout(open, REOPEN_MS);
        }
      };
    };
    open();
    return () => {
      disposed = true;
      source?.close();
      if (reopen) clearTimeout(reopen);
    };
  }, [refresh, client]);
}

const ageText = (ms: number) => (ms < 1500 ? 'now' : ms < 90_000 ? `${Math.round(ms / 1000)} s ago` : `${Math.round(ms / 60_000)} min ago`);

/** "live · updated 2 s ago", amber then red when updates stop. */
export function DataAge({ refresh, tz }: { refresh: RefreshMode; tz: TimeZoneMode }) {
  const { stream, freshAt, lastFetchFailed } = useLiveStatus();
  const now = useNow(1000);
  const ageMs = freshAt === null ? null : Math.max(0, now - freshAt);
  const tone = dataAgeTone({ ageMs, stream, off: refresh === 'off', lastFetchFailed });
  const mode =
    refresh === 'off'
      ? 'paused'
      : refresh !== 'live'
        ? `every ${refresh}`
        : stream === 'open'
          ? 'live'
          : stream === 'connecting'
            ? 'connecting'
            : 'polling';
  const title = [
    refresh === 'live' && stream === 'down'
      ? `Live stream lost: refreshing every ${FALLBACK_REFRESH_MS / 1000} s until it is back.`
      : refresh === 'live'
        ? 'Live: the page updates itself when events arrive.'
        : refresh === 'off'
          ? 'Auto-refresh is off.'
          : `Refreshing every ${refresh}.`,
    freshAt ? `Data current as of ${fmtTime(freshAt, tz, false)}.` : '',
    lastFetchFailed ? 'The last refresh failed.' : '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <span
      className={`data-age ${tone}`}
      data-testid="data-age"
      data-tone={tone}
      data-stream={stream}
      title={title}
      role="status"
      aria-live="polite"
    >
      <span className="data-age-dot" aria-hidden="true" />
      <span className="data-age-text">
        {mode}
        {ageMs !== null && refresh !== 'off' ? ` · ${ageText(ageMs)}` : ''}
      </span>
    </span>
  );
}
