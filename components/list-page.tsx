'use client';
import type { ReactElement, ReactNode } from 'react';
import { CursorPager } from '@/components/cursor-pager';
import { DataTable } from '@/components/panel';
import { Empty, ListStates } from '@/components/states';
import { fmtMatchCount } from '@/lib/ui/format';
import { useUrlState } from '@/lib/ui/url-state';
import { DEFAULT_LIST_LIMIT, LIST_LIMITS, listPaging } from '@/lib/ui/list-paging';

/** A multi-valued filter with `item` switched on or off. */
export function toggled(list: readonly string[], item: string): string[] {
  return list.includes(item) ? list.filter((x) => x !== item) : [...list, item];
}

/**
 * The scaffold of a list page: head (title, a line about the range and counts, a toolbar slot),
 * an optional intro, the filter panel with "Clear filters", then the table with its loading,
 * error and empty states and the cursor pager. Filters, paging and sorting all live in the URL;
 * any filter change starts again from the first page.
 */
export function ListPage<Row>({
  testId,
  title,
  sub,
  toolbar,
  intro,
  filters,
  filterParams,
  filtered,
  listLabel,
  query,
  rows,
  loadingLabel,
  emptyTitle,
  emptyText,
  table,
  renderRow,
  filterKey,
  noun,
  total,
  pager,
}: {
  testId: string;
  title: string;
  sub: ReactNode;
  toolbar?: ReactNode;
  intro?: ReactNode;
  /** The filter fields, before "Clear filters". */
  filters: ReactNode;
  /** The URL params "Clear filters" removes. */
  filterParams: readonly string[];
  filtered: boolean;
  listLabel: string;
  query: {
    isPending: boolean;
    isError: boolean;
    isPlaceholderData: boolean;
    error: unknown;
    data: { nextCursor: string | null } | undefined;
    refetch: () => unknown;
  };
  rows: readonly Row[];
  loadingLabel: string;
  emptyTitle: string;
  emptyText: ReactNode;
  /** The table; a column is its plain label, or its whole keyed `<th>` (sortable, numeric…). */
  table: { testId: string; className?: string; columns: readonly (string | ReactElement)[] };
  renderRow: (row: Row) => ReactNode;
  /** The query without its cursor: when it changes, the pager forgets earlier pages. */
  filterKey: string;
  noun: [singular: string, plural: string];
  /** Rows matching the filter over all pages (capped: "10,000+"); shown in the head once known. */
  total?: { count: number; capped: boolean } | null;
  /** In place of the URL's cursor pager: a list that loads older rows below the ones shown ("Load more"). */
  pager?: ReactNode;
}) {
  const { get, set } = useUrlState();
  const { limit, cursor } = listPaging(get);
  const data = query.data;
  return (
    <div className="stack" data-testid={testId}>
      <div className="page-head">
        <h1>{title}</h1>
        <span className="sub small">{sub}</span>
        {total && (
          <span className="sub small" data-testid="list-total">
            {fmtMatchCount(total.count, total.capped, noun)}
          </span>
        )}
        {toolbar && (
          <div className="row gap" style={{ marginLeft: 'auto' }}>
            {toolbar}
          </div>
        )}
      </div>
      {intro}

      <section className="panel">
        <div className="filters" role="group" aria-label="Filters">
          {filters}
          {filtered ? (
            <button
              type="button"
              className="btn btn-ghost btn-xs"
              onClick={() => set({ ...Object.fromEntries(filterParams.map((p) => [p, null])), cursor: null })}
            >
              Clear filters
            </button>
          ) : null}
        </div>
      </section>

      <section className={`panel ${query.isPlaceholderData ? 'stale' : ''}`} aria-label={listLabel}>
        <ListStates
          query={query}
          loadingLabel={loadingLabel}
          isEmpty={rows.length === 0}
          empty={<Empty title={emptyTitle}>{emptyText}</Empty>}
        >
          <DataTable
            testId={table.testId}
            className={table.className}
            head={table.columns.map((c) => (typeof c === 'string' ? <th key={c}>{c}</th> : c))}
          >
            {rows.map(renderRow)}
          </DataTable>
        </ListStates>
        {data &&
          (pager ?? (
            <CursorPager
              filterKey={filterKey}
              cursor={cursor}
              nextCursor={data.nextCursor}
              shown={rows.length}
              noun={noun}
              limit={limit}
              limits={LIST_LIMITS}
              defaultLimit={DEFAULT_LIST_LIMIT}
              onLimit={(l) => set({ limit: l === null ? null : String(l), cursor: null })}
              onCursor={(c) => set({ cursor: c })}
            />
          ))}
      </section>
    </div>
  );
}
