'use client';
// The session list's filters, all in the URL: token prefix, server, version, state, deadlock status,
// door-probe sessions and flags (all must match). Each change goes back to the first page.
import { toggled } from '@/components/list-page';
import { ServerSelect } from '@/components/server-select';
import { Tip } from '@/components/term';
import { DEADLOCK_STATUSES, SESSION_FLAGS, SESSION_STATES } from '@/lib/contract/summary';
import { RESUMPTION_FLAGS } from '@/lib/contract/resumption';
import { DEADLOCK_STATUS_LABELS, FLAG_HINTS, FLAG_LABELS, STATE_LABELS } from '@/lib/ui/format';
import { splitList } from '@/lib/ui/list-paging';
import { sessionListParams } from '@/lib/ui/session-list-params';
import { useUrlState } from '@/lib/ui/url-state';
import { AnyOfSelect } from './any-of-select';
import { FlagChip } from './flag-chip';
import { TextFilter } from './text-filter';

export function SessionFilters() {
  const { global, get, set } = useUrlState();
  const flags = splitList(get('flag'));
  const server = global.server;
  const token = get('token') ?? '';
  const version = get('version') ?? '';
  const { synthetic } = sessionListParams(get, global);
  const toggleFlag = (f: string) => set({ flag: toggled(flags, f).join(',') || null, cursor: null });
  return (
    <>
      <TextFilter
        id="token-filter"
        label="Token"
        value={token}
        width={200}
        placeholder="prefix…"
        onChange={(v) => set({ token: v, cursor: null }, 'replace')}
      />
      <ServerSelect id="server-select" testId="server-select" value={server} onChange={(v) => set({ server: v, cursor: null })} />
      <TextFilter
        id="version-filter"
        label="Version"
        value={version}
        width={120}
        placeholder="any"
        title="Versions (builds) that served the session, comma-separated: any of"
        onChange={(v) => set({ version: v?.replace(/\s+/g, '') || null, cursor: null }, 'replace')}
      />
      <AnyOfSelect id="state" label="State" values={SESSION_STATES} labels={STATE_LABELS} anyLabel="Any" />
      <AnyOfSelect
        id="deadlock"
        label="Deadlock"
        values={DEADLOCK_STATUSES}
        labels={DEADLOCK_STATUS_LABELS}
        anyLabel="Any session"
        tip="Stuck now: the client still waits for a handshake that will not come. Ended: the server reported the wait’s end. End unreported: no end was reported and the wait is older than the longest a deadlock can last."
      />
      <div className="field term">
        <label htmlFor="synthetic-select">Door-probe sessions</label>
        <select
          id="synthetic-select"
          className="select"
          aria-describedby="synthetic-tip"
          value={synthetic}
          onChange={(e) => set({ synthetic: e.target.value === 'include' ? null : e.target.value, cursor: null })}
          data-testid="synthetic-select"
        >
          <option value="include">Shown</option>
          <option value="exclude">Hidden</option>
          <option value="only">Only these</option>
        </select>
        <Tip id="synthetic-tip">
          Sessions Doorwatch opened itself to test a server’s door (Servers page, door probes); they never count in the figures.
        </Tip>
      </div>
      <div className="field" role="group" aria-label="Flags (all must match)">
        <span className="small muted">Flags</span>
        {[...SESSION_FLAGS, ...RESUMPTION_FLAGS].map((f) => (
          <label key={f} className="flag-toggle term">
            <input
              type="checkbox"
              checked={flags.includes(f)}
              onChange={() => toggleFlag(f)}
              aria-describedby={`flag-tip-${f}`}
              data-testid={`flag-${f}`}
            />
            {flags.includes(f) ? <FlagChip flag={f} /> : <span className="chip">{FLAG_LABELS[f]}</span>}
            <Tip id={`flag-tip-${f}`}>Show only sessions where: {FLAG_HINTS[f]}</Tip>
          </label>
        ))}
      </div>
    </>
  );
}
