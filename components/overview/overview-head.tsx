'use client';
// The overview's heading: what the range holds, the split-by-server toggle and the server filter.
import type { TStatsResponse } from '@/lib/contract/api/stats';
import { fmtDuration, fmtInt } from '@/lib/ui/format';
import type { ChartSplit, ParamPatch } from '@/lib/ui/url-state';

export function OverviewHead({
  stats: s,
  split,
  server,
  serverNames,
  set,
}: {
  stats: TStatsResponse | undefined;
  split: ChartSplit;
  server: string;
  serverNames: string[];
  set: (patch: ParamPatch) => void;
}) {
  return (
    <div className="page-head">
      <h1>Overview</h1>
      <span className="sub small">
        {s ? (
          <>
            {fmtInt(s.sessions)} sessions · {fmtInt(s.events)} events · {s.server ? `server ${s.server}` : 'all servers'} · bucket{' '}
            {fmtDuration(s.bucketMs)}
          </>
        ) : (
          ' '
        )}
      </span>
      <div className="row gap page-head-tools">
        <button
          type="button"
          className={`btn ${split === 'server' ? 'active' : ''}`}
          aria-pressed={split === 'server'}
          onClick={() => set({ split: split === 'server' ? null : 'server' })}
          title="One series per server in the count charts (the top few, the rest as other)"
          data-testid="split-toggle"
        >
          Split by server
        </button>
        <label htmlFor="server-filter">Server</label>
        <select
          id="server-filter"
          className="select"
          value={server}
          onChange={(e) => set({ server: e.target.value || null })}
          data-testid="overview-server-filter"
        >
          <option value="">All servers</option>
          {serverNames.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
          {server && !serverNames.includes(server) && <option value={server}>{server}</option>}
        </select>
      </div>
    </div>
  );
}
