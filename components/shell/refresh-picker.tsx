'use client';
import { useIsFetching } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Tip } from '@/components/term';
import { DataAge, useLiveUpdates } from './live-updates';
import { REFRESH_MODES, type RefreshMode } from '@/lib/ui/global-params';
import { useUrlState } from '@/lib/ui/url-state';

export function usePageVisible(): boolean {
  const [visible, setVisible] = useState(true);
  useEffect(() => {
    const update = () => setVisible(document.visibilityState !== 'hidden');
    update();
    document.addEventListener('visibilitychange', update);
    return () => document.removeEventListener('visibilitychange', update);
  }, []);
  return visible;
}

export function RefreshPicker() {
  const { global, set } = useUrlState();
  const fetching = useIsFetching();
  const visible = usePageVisible();
  const paused = global.refresh !== 'off' && !visible;
  useLiveUpdates(global.refresh);
  return (
    <div className="refresh">
      {/* The loading light: its state in words for screen readers, what it means on hover and focus. */}
      <span className="term" tabIndex={0} aria-describedby="refresh-tip">
        <span
          className={`refresh-dot ${fetching > 0 ? 'busy' : ''}`}
          role="status"
          aria-live="polite"
          data-testid="refresh-indicator"
          data-fetching={fetching > 0 ? 'true' : 'false'}
        >
          <span className="sr-only">
            {fetching > 0 ? 'Loading data' : paused ? 'Auto-refresh paused while the tab is hidden' : 'Not loading'}
          </span>
        </span>
        <Tip id="refresh-tip">Loading light: blue and pulsing while the page fetches data, grey when it is not.</Tip>
      </span>
      <DataAge refresh={global.refresh} tz={global.tz} />
      <label className="sr-only" htmlFor="refresh-select">
        Auto-refresh
      </label>
      <select
        id="refresh-select"
        className="select"
        value={global.refresh}
        onChange={(e) => set({ refresh: e.target.value === 'live' ? null : (e.target.value as RefreshMode) }, 'replace')}
        title="Live updates (default), interval refresh or off (paused in hidden tabs)"
        data-testid="refresh-select"
      >
        {REFRESH_MODES.map((m) => (
          <option key={m} value={m}>
            {m === 'off' ? 'Auto-refresh off' : m === 'live' ? 'Live' : `Every ${m}`}
          </option>
        ))}
      </select>
    </div>
  );
}
