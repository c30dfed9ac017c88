'use client';
import { RelTime } from '@/components/rel-time';
import { RowLink } from '@/components/row-link';
import { ListPage } from '@/components/list-page';
import type { TSessionView } from '@/lib/contract/api/sessions';
import { WindowExportLinks } from '@/components/window-export-links';
import { fmtDateTime, fmtLatency, fmtInt, shortToken, type TimeZoneMode } from '@/lib/ui/format';
import { useSessions } from '@/lib/ui/queries';
import { sessionExportUrl } from '@/lib/ui/query-defs';
import { sessionListParams } from '@/lib/ui/session-list-params';
import { describeRange } from '@/lib/time/describe';
import { useNow } from '@/lib/ui/use-now';
import { useUrlState } from '@/lib/ui/url-state';
import { useRefetchAt } from '@/lib/ui/use-refetch-at';
import { Flags, StateChip } from './flag-chip';
import { DeadlockChip, type AnswerClock } from './deadlock-chip';
import { SessionFilters } from './session-filters';

export function sessionHref(link: (p: string) => string, s: { server: string; token: string }) {
  return link(`/servers/${encodeURIComponent(s.server)}/sessions/${encodeURIComponent(s.token)}`);
}

function Outcome({ s, clock }: { s: TSessionView; clock: AnswerClock }) {
  if (s.deadlock) return <DeadlockChip s={s} deadlock={s.deadlock} clock={clock} />;
  if (s.refusalLatencyMs !== null) return <span className="num">refused in {fmtLatency(s.refusalLatencyMs)}</span>;
  if (s.boundaryOutcome === 'pending') return <span className="chip warn">unanswered</span>;
  // A naive resume that has not (yet) become a deadlock is still the wrong answer: never a bare dash.
  if (s.boundaryOutcome === 'naive_resume') return <span className="chip bad">naive resume</span>;
  return <span className="faint">—</span>;
}

function Row({ s, tz, link, clock }: { s: TSessionView; tz: TimeZoneMode; link: (p: string) => string; clock: AnswerClock }) {
  const href = sessionHref(link, s);
  return (
    <tr data-testid="session-row" data-token={s.token}>
      <td className="mono">
        {s.server}
        {s.version !== null && (
          <div className="small muted" title="The version (build) that served this session" data-testid="session-version">
            {s.version}
          </div>
        )}
      </td>
      <td>
        <RowLink href={href} className="mono" title={s.token} data-testid="session-link">
          {shortToken(s.token, 28)}
        </RowLink>
        {s.synthetic && (
          <span className="chip" title="Opened by a door probe; kept out of fleet statistics" data-testid="synthetic-badge">
            {' '}
            synthetic
          </span>
        )}
      </td>
      <td>
        <StateChip state={s.state} />
      </td>
      <td>
        <Flags flags={[...s.flags, ...s.resumption.flags]} />
      </td>
      <td>
        <Outcome s={s} clock={clock} />
      </td>
      <td className="ts">
        <RelTime value={s.firstEventAt} tz={tz} />
      </td>
      <td className="ts">
        <RelTime value={s.lastEventAt} tz={tz} testId="session-last-event" />
      </td>
      <td className="num">{fmtInt(s.eventCount)}</td>
      <td>
        {s.successorToken ? (
          <RowLink
            href={sessionHref(link, { server: s.successorServer ?? s.server, token: s.successorToken })}
            className="mono small"
            title={`renegotiated as ${s.successorToken}`}
          >
            → {shortToken(s.successorToken, 16)}
            {s.renegotiationLatencyMs !== null && <span className="muted"> ({fmtLatency(s.renegotiationLatencyMs)})</span>}
          </RowLink>
        ) : s.previousToken ? (
          <span className="small muted" title={`renegotiated from ${s.previousToken}`}>
            ← {shortToken(s.previousToken, 16)}
          </span>
        ) : (
          <span className="faint">—</span>
        )}
      </td>
    </tr>
  );
}

function SortHeader({
  label,
  field,
  sort,
  onSort,
}: {
  label: string;
  field: 'firstEventAt' | 'lastEventAt';
  sort: string;
  onSort: (s: string) => void;
}) {
  const active = sort.replace('-', '') === field;
  const desc = sort.startsWith('-');
  const next = active && desc ? field : `-${field}`;
  return (
    <th aria-sort={active ? (desc ? 'descending' : 'ascending') : 'none'}>
      <button
        type="button"
        className="th-sort"
        onClick={() => onSort(next)}
        title={`Sort by ${label.toLowerCase()}`}
        data-testid={`sort-${field}`}
      >
        {label} {active ? desc ? '▼' : '▲' : <span className="faint">↕</span>}
      </button>
    </th>
  );
}

/** The list's filters read straight from the URL (SessionFilters); server and synthetic have their own rules. */
const TEXT_FILTERS = ['flag', 'state', 'deadlock', 'token', 'version'];

export function SessionsView() {
  const now = useNow(30_000);
  const { global, get, set, link } = useUrlState();
  const { from, to, tz, refresh } = global;
  const params = sessionListParams(get, global);
  const { synthetic, sort } = params;
  const q = useSessions(params, refresh);
  const clock: AnswerClock = {
    answerNowMs: q.data ? Date.parse(q.data.now) : 0,
    receivedAt: q.dataUpdatedAt,
    maxMs: q.data?.deadlockMaxMs ?? 0,
  };

  // A row's deadlock changes by the clock alone (it turns, or its end goes unreported): ask again then.
  useRefetchAt(q.data?.nextChangeAt ?? null, q.data?.now ?? null, q.dataUpdatedAt, q.refetch, refresh !== 'off');
  const onSort = (s: string) => set({ sort: s === '-lastEventAt' ? null : s, cursor: null });

  const rangeText = describeRange(from, to, (ms) => fmtDateTime(ms, tz).slice(0, 16), now);
  // As the URL has them (a hand-edited value the list ignores still shows "Clear filters").
  const anyFilter = Boolean(global.server) || synthetic !== 'include' || TEXT_FILTERS.some((k) => get(k));

  return (
    <ListPage
      testId="sessions"
      title="Sessions"
      sub={<>active in {rangeText.toLowerCase().startsWith('last') ? `the ${rangeText.toLowerCase()}` : rangeText}</>}
      toolbar={
        <WindowExportLinks
          shownAt={q.dataUpdatedAt || now}
          formats={['csv', 'json'] as const}
          href={(window, format) => sessionExportUrl({ ...params, ...window, format })}
        />
      }
      filters={<SessionFilters />}
      filterParams={[...TEXT_FILTERS, 'server', 'synthetic']}
      filtered={anyFilter}
      listLabel="Session list"
      query={q}
      rows={q.data?.sessions ?? []}
      loadingLabel="Loading sessions…"
      emptyTitle="No sessions match"
      emptyText={
        <>
          {anyFilter ? 'Try removing a filter or widening the time range.' : 'No session was active in this time range.'} A token you know?
          Use the lookup (press /): it searches all time.
        </>
      }
      table={{
        testId: 'sessions-table',
        columns: [
          'Server',
          'Token',
          'State',
          'Flags',
          'Boundary answer',
          <SortHeader key="first" label="First event" field="firstEventAt" sort={sort} onSort={onSort} />,
          <SortHeader key="last" label="Last event" field="lastEventAt" sort={sort} onSort={onSort} />,
          <th key="events" className="num">
            Events
          </th>,
          'Renegotiation',
        ],
      }}
      renderRow={(s) => <Row key={`${s.server}/${s.token}`} s={s} tz={tz} link={link} clock={clock} />}
      filterKey={JSON.stringify({ ...params, cursor: undefined })}
      noun={['session', 'sessions']}
      total={q.data ? { count: q.data.total, capped: q.data.totalCapped } : null}
    />
  );
}
