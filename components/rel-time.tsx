'use client';
// A time in a list row as "3 s ago", ticking, with the absolute time (operator's zone) on hover.
// It ages by the data's clock: while the page is stale it stops "as of" the last proof of currency,
// like every other figure that ticks (lib/ui/connection.ts).
import { fmtAgo, fmtDateTime, type TimeZoneMode } from '@/lib/ui/format';
import { useDataNow } from '@/lib/ui/use-staleness';

export function RelTime({ value, tz, testId }: { value: string | number | null; tz: TimeZoneMode; testId?: string }) {
  // (useNow, under it, hands hydration the server's render time: the server's text and the first client text agree.)
  const now = useDataNow(1000);
  if (value === null) return <span className="faint">—</span>;
  const iso = typeof value === 'number' ? new Date(value).toISOString() : value;
  return (
    <time dateTime={iso} title={`${fmtDateTime(value, tz, true)}${tz === 'utc' ? ' UTC' : ''}`} data-testid={testId}>
      {fmtAgo(value, now)}
    </time>
  );
}
