'use client';
// The one place a lost connection or a failing refresh is said in words: a notice fixed to the
// bottom of the window (out of the page's flow, so nothing moves when it comes or goes), while the
// figures stay in place, marked stale by the shell (`main[data-stale]`).
import { onlineManager, useQueryClient } from '@tanstack/react-query';
import { fmtTime } from '@/lib/ui/format';
import { useLiveStatus } from '@/lib/ui/live-status';
import { useStaleness } from '@/lib/ui/use-staleness';
import { useUrlState } from '@/lib/ui/url-state';

export function ConnectionNotice() {
  const st = useStaleness();
  const { lastError } = useLiveStatus();
  const { tz } = useUrlState().global;
  const client = useQueryClient();
  if (!st.stale) return null;
  const asOf = st.asOf !== null ? fmtTime(st.asOf, tz, false) : 'the page loaded';
  return (
    <div className="connection-notice" role="status" data-testid="connection-notice" data-reason={st.reason}>
      <strong>{st.reason === 'unreachable' ? 'Doorwatch is not answering.' : 'The last refresh failed.'}</strong>{' '}
      <span>
        Figures are as of {asOf} and marked stale until it answers again
        {st.reason === 'unreachable' ? ' (checked every second).' : '.'}
      </span>
      {st.reason === 'refresh_failed' && lastError && (
        <span className="faint">
          {' '}
          {lastError.message}
          {lastError.code && ` (${lastError.code})`}
        </span>
      )}{' '}
      <button
        type="button"
        className="btn btn-xs"
        onClick={() => {
          // Every query asks now, also those holding still while the probe finds Doorwatch gone
          // (live-updates.tsx); if it is still gone, the probe's next failure holds them again.
          onlineManager.setOnline(true);
          void client.invalidateQueries({ predicate: (q) => q.queryKey[0] === 'doorwatch' });
        }}
      >
        Retry now
      </button>
    </div>
  );
}
