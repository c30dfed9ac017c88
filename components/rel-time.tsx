'use client';
// A time in a list row as "3 s ago", ticking, with the absolute time (operator's zone) on hover.
import { fmtAgo, fmtDateTime, type TimeZoneMode } from '@/lib/ui/format';
import { useNow } from '@/lib/ui/use-now';

export function RelTime({ value, tz, testId }: { value: string | number | null; tz: TimeZoneMode; testId?: string }) {
  // useNow hands hydration the server's render time, so the server's text and the first client text agree.
  const now = useNow(1000);
  if (value === null) return <span className="faint">—</span>;
  const iso = typeof value === 'number' ? new Date(value).toISOString() : value;
  return (
    <time dateTime={iso} title={`${fmtDateTime(value, tz, true)}${tz === 'utc' ? ' UTC' : ''}`} data-testid={testId}>
      {fmtAgo(value, now)}
    </time>
  );
}
