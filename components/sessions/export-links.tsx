'use client';
// The session list's export links: the filter on screen over the window the list was read for, as
// absolute instants (a relative range in a link would cover another window when downloaded later).
import { formatInstant } from '@/lib/time/instant';
import { resolveTimeRangeOrDefault } from '@/lib/time/range';
import { fmtDateTime } from '@/lib/ui/format';
import { sessionExportUrl } from '@/lib/ui/query-defs';
import type { sessionListParams } from '@/lib/ui/session-list-params';
import { useUrlState } from '@/lib/ui/url-state';

export function ExportLinks({ params, shownAt }: { params: ReturnType<typeof sessionListParams>; shownAt: number }) {
  const { from, to, tz } = useUrlState().global;
  const shown = resolveTimeRangeOrDefault(from, to, shownAt);
  const exportFrom = formatInstant(shown.fromMs);
  const exportTo = formatInstant(shown.toMs);
  const [shownFrom, shownTo] = [shown.fromMs, shown.toMs].map((ms) => fmtDateTime(ms, tz).slice(0, 16));
  const exportWindow = shownFrom.slice(0, 10) === shownTo.slice(0, 10) ? `${shownFrom}–${shownTo.slice(11)}` : `${shownFrom} – ${shownTo}`;
  const exportQuery = (format: 'csv' | 'json') => sessionExportUrl({ ...params, from: exportFrom, to: exportTo, format });
  return (
    <>
      <span
        className="small muted"
        data-testid="export-window"
        title={`All pages of this filter, ${exportFrom} – ${exportTo} (UTC): the window on screen, kept when the file is downloaded later`}
      >
        Export this filter, {exportWindow}:
      </span>
      <a className="btn btn-xs" href={exportQuery('csv')} download data-testid="export-csv">
        CSV
      </a>
      <a className="btn btn-xs" href={exportQuery('json')} download data-testid="export-json">
        JSON
      </a>
    </>
  );
}
