'use client';
// The Audit page (admins): who changed what, newest first, under filters kept in the URL (actor,
// entity type and id, action; the range is the time picker's), older entries appended by "Load
// more", and the filter's whole window as CSV or NDJSON. Everything shown is the API's text,
// rendered as text, with secrets already redacted by the server.
import { useEffect, useState } from 'react';
import { ListPage } from '@/components/list-page';
import { TextFilter } from '@/components/sessions/text-filter';
import { WindowExportLinks } from '@/components/window-export-links';
import { SignedInOperator } from '@/components/signed-in-operator';
import { Empty } from '@/components/states';
import { AUDIT_ACTIONS, AUDIT_ENTITY_TYPES, AUDIT_EXPORT_FORMATS } from '@/lib/contract/api/audit';
import { describeRange } from '@/lib/time/describe';
import { resolveExactRange } from '@/lib/time/range';
import { AUDIT_FILTER_PARAMS, auditListParams } from '@/lib/ui/audit-params';
import { fmtDateTime, fmtInt, tzLabel } from '@/lib/ui/format';
import { useAuditLog } from '@/lib/ui/queries';
import { auditUrl } from '@/lib/ui/query-defs';
import { useNow } from '@/lib/ui/use-now';
import { useUrlState } from '@/lib/ui/url-state';
import { AUDIT_COLUMNS, AuditRow } from './audit-row';
import { ENTITY_WORDS } from './audit-words';

function ChoiceFilter({
  id,
  label,
  value,
  choices,
  words,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  choices: readonly string[];
  words?: Record<string, string>;
  onChange: (v: string | null) => void;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} className="select" value={value} onChange={(e) => onChange(e.target.value || null)} data-testid={id}>
        <option value="">Any</option>
        {choices.map((c) => (
          <option key={c} value={c}>
            {words?.[c] ?? c}
          </option>
        ))}
      </select>
    </div>
  );
}

function AuditLog() {
  const now = useNow(30_000);
  const { global, get, set } = useUrlState();
  const { from, to, tz, refresh } = global;
  const params = auditListParams(get, global);
  const q = useAuditLog(params, refresh);
  const { fetchNextPage, hasNextPage, isFetching } = q;
  // "Load more" asks for one page more than is held, and the next page is fetched while fewer are
  // held than asked for: a refetch (the live stream's on connecting) cancels a running
  // fetchNextPage and re-reads only the pages held, so the click is kept and asked again after it.
  const filterKey = JSON.stringify(params);
  const [wanted, setWanted] = useState({ key: filterKey, pages: 1 });
  const wantedPages = wanted.key === filterKey ? wanted.pages : 1;
  const held = q.data?.pages.length ?? 0;
  const loadingMore = held > 0 && held < wantedPages && hasNextPage;
  useEffect(() => {
    if (loadingMore && !isFetching) void fetchNextPage();
  }, [loadingMore, isFetching, fetchNextPage]);
  const entries = q.data?.pages.flatMap((p) => p.entries) ?? [];
  const last = q.data?.pages.at(-1);
  const filtered = AUDIT_FILTER_PARAMS.some((k) => get(k));
  const filter = (key: (typeof AUDIT_FILTER_PARAMS)[number]) => (v: string | null) => set({ [key]: v }, 'replace');
  const rangeText = describeRange(from, to, (ms) => fmtDateTime(ms, tz).slice(0, 16), now);
  return (
    <ListPage
      testId="audit"
      title="Audit log"
      sub={
        <>
          changes {rangeText.toLowerCase().startsWith('last') ? `in the ${rangeText.toLowerCase()}` : `in ${rangeText}`}, newest first ·
          times in {tzLabel(tz, now)}
        </>
      }
      toolbar={
        // The API reads the audit range exactly (not minute-aligned): the window is resolved so.
        <WindowExportLinks
          shownAt={q.dataUpdatedAt || now}
          resolve={resolveExactRange}
          formats={AUDIT_EXPORT_FORMATS}
          href={(window, format) => auditUrl({ ...params, ...window, limit: undefined, format })}
        />
      }
      intro={
        <p className="small muted">
          Every change an operator or Doorwatch made to servers, webhook secrets, operator tokens, alert rules, contact points, door probes,
          silences, incidents and annotations, with the entity before and after. Secrets are never kept: they read <code>[redacted]</code>.
          Kept <code>DOORWATCH_AUDIT_RETENTION_DAYS</code> (365 by default).
        </p>
      }
      filters={
        <>
          <TextFilter
            id="audit-actor"
            label="Actor"
            value={get('actor') ?? ''}
            width={160}
            placeholder="name or id"
            title="Who made the change: an operator's name or id (exact)"
            onChange={filter('actor')}
          />
          <ChoiceFilter
            id="audit-entity-type"
            label="Entity"
            value={params.entityType ?? ''}
            choices={AUDIT_ENTITY_TYPES}
            words={ENTITY_WORDS}
            onChange={(v) => set({ entityType: v })}
          />
          <TextFilter
            id="audit-entity-id"
            label="Id"
            value={get('entityId') ?? ''}
            width={160}
            placeholder="any"
            title="The entity's id (exact): a server name, a rule id, …"
            onChange={filter('entityId')}
          />
          <ChoiceFilter
            id="audit-action"
            label="Action"
            value={params.action ?? ''}
            choices={AUDIT_ACTIONS}
            onChange={(v) => set({ action: v })}
          />
        </>
      }
      filterParams={AUDIT_FILTER_PARAMS}
      filtered={filtered}
      listLabel="Audit entries"
      query={{ ...q, data: last }}
      rows={entries}
      loadingLabel="Loading the audit log…"
      emptyTitle="No changes"
      emptyText={
        filtered
          ? 'No change matches these filters in this range.'
          : 'Nobody changed anything in this range. Widen the range to look further back.'
      }
      table={{ testId: 'audit-table', className: 'audit cards', columns: AUDIT_COLUMNS }}
      renderRow={(e) => <AuditRow key={e.id} entry={e} tz={tz} />}
      filterKey={filterKey}
      noun={['entry', 'entries']}
      pager={
        // None under the empty state (false, not null: null would mean the URL's cursor pager).
        entries.length > 0 && (
          <div className="pager">
            <span className="small" data-testid="audit-shown">
              {fmtInt(entries.length)} {entries.length === 1 ? 'entry' : 'entries'} shown{hasNextPage ? '' : ', all of this filter'}
            </span>
            <span className="grow" />
            {hasNextPage && (
              <button
                type="button"
                className="btn btn-xs"
                disabled={loadingMore}
                onClick={() => setWanted({ key: filterKey, pages: held + 1 })}
                data-testid="audit-load-more"
              >
                {loadingMore ? 'Loading…' : 'Load more'}
              </button>
            )}
          </div>
        )
      }
    />
  );
}

/** Admins read the log; anyone else is told so, as on Settings. */
export function AuditView() {
  return (
    <SignedInOperator>
      {(operator) =>
        operator.role === 'admin' ? (
          <AuditLog />
        ) : (
          <div className="stack" data-testid="audit-refused">
            <div className="page-head">
              <h1>Audit log</h1>
              <span className="sub small">
                signed in as {operator.name} ({operator.role})
              </span>
            </div>
            <div className="panel">
              <Empty title="Administrators only">Who changed what is shown to admins. Ask one for access.</Empty>
            </div>
          </div>
        )
      }
    </SignedInOperator>
  );
}
