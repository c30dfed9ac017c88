'use client';
// A list's export links: the filter on screen over the window the list was read for, as absolute
// instants (a relative range in a link would cover another window when downloaded later), with that
// window shown beside them in the page's zone.
import { formatInstant } from '@/lib/time/instant';
import { resolveTimeRange, resolveTimeRangeOrDefault } from '@/lib/time/range';
import { fmtDateTime } from '@/lib/ui/format';
import { useUrlState } from '@/lib/ui/url-state';

export function WindowExportLinks<Format extends string>({
  shownAt,
  resolve = resolveTimeRange,
  formats,
  href,
}: {
  /** When the list was read: a relative range resolves at this instant. */
  shownAt: number;
  /** How the list's API reads its range: minute-aligned (the default, as the session list) or exact. */
  resolve?: typeof resolveTimeRange;
  formats: readonly Format[];
  /** The download's URL for the window (absolute instants) in one format. */
  href: (window: { from: string; to: string }, format: Format) => string;
}) {
  const { from, to, tz } = useUrlState().global;
  const shown = resolveTimeRangeOrDefault(from, to, shownAt, resolve);
  const window = { from: formatInstant(shown.fromMs), to: formatInstant(shown.toMs) };
  const [shownFrom, shownTo] = [shown.fromMs, shown.toMs].map((ms) => fmtDateTime(ms, tz).slice(0, 16));
  const exportWindow = shownFrom.slice(0, 10) === shownTo.slice(0, 10) ? `${shownFrom}–${shownTo.slice(11)}` : `${shownFrom} – ${shownTo}`;
  return (
    <>
      <span
        className="small muted"
        data-testid="export-window"
        title={`All pages of this filter, ${window.from} – ${window.to} (UTC): the window on screen, kept when the file is downloaded later`}
      >
        Export this filter, {exportWindow}:
      </span>
      {formats.map((format) => (
        <a key={format} className="btn btn-xs" href={href(window, format)} download data-testid={`export-${format}`}>
          {format.toUpperCase()}
        </a>
      ))}
    </>
  );
}
