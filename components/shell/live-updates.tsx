'use client';
// The page's end of /api/v1/changes: an EventSource that invalidates only the queries a change
// affects, and the data-age indicator in the top bar. When the stream breaks, lib/ui/queries.ts
// falls back to interval refresh (FALLBACK_REFRESH_MS) and the indicator says so.
import { onlineManager, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ZChange } from '@/lib/live/change';
import { dataAgeTone } from '@/lib/ui/data-age';
import { fmtTime, type TimeZoneMode } from '@/lib/ui/format';
import { isAffected } from '@/lib/ui/live-invalidation';
import { afterAnswer, isServiceFailure, isUnreachable, staleness } from '@/lib/ui/connection';
import { UiApiError } from '@/lib/ui/fetcher';
import { getLiveStatus, setLiveStatus, useLiveStatus, useStreamState } from '@/lib/ui/live-status';
import { FALLBACK_REFRESH_MS } from '@/lib/ui/queries';
import { useNow } from '@/lib/ui/use-now';
import { RefetchPacer } from '@/lib/ui/refetch-pacer';
import type { RefreshMode } from '@/lib/ui/global-params';

/** After the browser gives up on an EventSource (e.g. a 401 or a non-stream answer), try again this often. */
const REOPEN_MS = 5000;
/** While the stream is down, how often to ask whether Doorwatch answers at all. */
const PROBE_MS = 1000;
/** A query refetches for pushed changes at most this often (lib/ui/refetch-pacer.ts); the first change after a quiet spell at once. */
const LIVE_REFETCH_INTERVAL_MS = 2000;

export function useLiveUpdates(refresh: RefreshMode): void {
  const client = useQueryClient();

  // A successful fetch proves its data current as lib/ui/connection.ts afterAnswer says (which needs
  // when its request left); a failure of Doorwatch itself (the network, a 5xx) is remembered for the
  // indicator and the stale notice. A 4xx is the view's own answer (a bad filter, a missing session)
  // and says nothing about whether the rest of the page is current.
  useEffect(() => {
    // Per query, when its fetch started. A refetch that cancels one in flight dispatches no new
    // "fetch", so the older start stands: an earlier start only ever proves less.
    const started = new Map<string, number>();
    return client.getQueryCache().subscribe((e) => {
      if (e.type === 'removed') started.delete(e.query.queryHash);
      if (e.type !== 'updated') return;
      if (e.action.type === 'fetch') started.set(e.query.queryHash, Date.now());
      else if (e.action.type === 'success') {
        const now = Date.now();
        setLiveStatus(afterAnswer(getLiveStatus(), started.get(e.query.queryHash) ?? now, now));
        started.delete(e.query.queryHash);
      } else if (e.action.type === 'error') {
        started.delete(e.query.queryHash);
        const err = e.action.error;
        if (!isServiceFailure(err)) return;
        setLiveStatus({
          lastFetchFailed: true,
          lastError: { message: err instanceof Error ? err.message : String(err), code: err instanceof UiApiError ? err.code : null },
          ...(isUnreachable(err) ? { unreachableSince: getLiveStatus().unreachableSince ?? Date.now() } : {}),
        });
      }
    });
  }, [client]);

  // While the stream is down, ask whether Doorwatch answers at all (GET /api/live) at once and then
  // every PROBE_MS: a dead app shows as lost within a second or two, not at the next refetch.
  const stream = useStreamState();
  useEffect(() => {
    // Live only: on an interval refresh the refetches themselves find out, and no stream is expected.
    if (refresh !== 'live' || stream !== 'down') return;
    let disposed = false;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const probe = async () => {
      const answered = await fetch('/api/live', { cache: 'no-store' }).then(
        (r) => r.status < 500,
        () => false,
      );
      if (disposed) return;
      if (!answered) {
        setLiveStatus({ unreachableSince: getLiveStatus().unreachableSince ?? Date.now() });
        // While Doorwatch does not answer, the page's queries hold still (TanStack's offline state:
        // paused, neither retried nor polled) and this probe asks for all of them. Before, every
        // query kept polling at the fallback rate with two retries each, so a page was seldom not
        // fetching during an outage, and every open dashboard kept knocking on a starting instance.
        onlineManager.setOnline(false);
      } else {
        const wasUnreachable = getLiveStatus().unreachableSince !== null;
        // The outage ends before anything resumes, so the answers that follow prove the page current.
        if (wasUnreachable) setLiveStatus({ unreachableSince: null });
        onlineManager.setOnline(true);
        // Back: what is on screen may be old, refetch it (the stream reopens by itself).
        if (wasUnreachable) void client.invalidateQueries({ predicate: (q) => q.queryKey[0] === 'doorwatch' });
      }
      // Probe again even after an answer: an instance that is shutting down still answers on a
      // connection it already had open, and is gone a moment later.
      timer = setTimeout(() => void probe(), PROBE_MS);
    };
    void probe();
    return () => {
      disposed = true;
      if (timer) clearTimeout(timer);
      // The stream is back (or live updates are off): the queries ask for themselves again.
      onlineManager.setOnline(true);
    };
  }, [refresh, stream, client]);

  useEffect(() => {
    if (refresh !== 'live') {
      setLiveStatus({ stream: 'down' });
      return;
    }
    let source: EventSource | null = null;
    let reopen: ReturnType<typeof setTimeout> | null = null;
    let disposed = false;
    const pacer = new RefetchPacer<readonly unknown[]>(
      LIVE_REFETCH_INTERVAL_MS,
      (queryKey) => void client.invalidateQueries({ queryKey, exact: true }),
    );
    const alive = () => setLiveStatus({ stream: 'open', freshAt: Date.now(), unreachableSince: null });
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
        for (const q of client.getQueryCache().findAll({ predicate: (q) => isAffected(change.data, q.queryKey) }))
          pacer.changed(q.queryHash, q.queryKey);
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
      pacer.stop();
      source?.close();
      if (reopen) clearTimeout(reopen);
    };
  }, [refresh, client]);
}

const ageText = (ms: number) => (ms < 1500 ? 'now' : ms < 90_000 ? `${Math.round(ms / 1000)} s ago` : `${Math.round(ms / 60_000)} min ago`);

/** "live · updated 2 s ago", amber then red when updates stop. */
export function DataAge({ refresh, tz }: { refresh: RefreshMode; tz: TimeZoneMode }) {
  const live = useLiveStatus();
  const { stream, freshAt, lastFetchFailed } = live;
  const st = staleness(live, refresh === 'off');
  const now = useNow(1000);
  const ageMs = freshAt === null ? null : Math.max(0, now - freshAt);
  const tone = dataAgeTone({ ageMs, stream, off: refresh === 'off', lastFetchFailed, unreachable: st.reason === 'unreachable' });
  const mode =
    refresh === 'off'
      ? 'paused'
      : st.reason === 'unreachable'
        ? 'offline'
        : refresh !== 'live'
          ? `every ${refresh}`
          : stream === 'open'
            ? 'live'
            : stream === 'connecting'
              ? 'connecting'
              : 'polling';
  const title = [
    st.reason === 'unreachable'
      ? `Doorwatch is not answering: the figures are as they were at ${st.asOf ? fmtTime(st.asOf, tz, false) : 'load'}; retrying every ${PROBE_MS / 1000} s.`
      : refresh === 'live' && stream === 'down'
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
  const when =
    st.stale && st.asOf !== null ? (
      <>
        <span className="data-age-asof">as of </span>
        {fmtTime(st.asOf, tz, false)}
      </>
    ) : ageMs !== null && refresh !== 'off' ? (
      ageText(ageMs)
    ) : null;
  return (
    <span
      className={`data-age ${tone}`}
      data-testid="data-age"
      data-tone={tone}
      data-stream={stream}
      data-stale={st.stale}
      title={title}
      role="status"
      aria-live="polite"
    >
      <span className="data-age-dot" aria-hidden="true" />
      {/* The state and its time in two parts: one line where the top bar has room, two lines from 1440 px
          down ("offline ·" over "as of 21:43:27"), so the pill never outgrows the toolbar's place. */}
      <span className="data-age-text">
        <span className="data-age-state">
          {mode}
          {when ? <span className="data-age-sep"> ·</span> : null}
        </span>
        {when ? <span className="data-age-when"> {when}</span> : null}
      </span>
    </span>
  );
}
