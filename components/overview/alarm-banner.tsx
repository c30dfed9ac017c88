'use client';
// The overview's alarm: state plus recency, naming the server (lib/ui/alarm decides, with
// hysteresis across refreshes and on the ticking clock), and the deadlock idle time that keeps
// counting in the browser.
import { keepWhole } from '@/components/keep-whole';
import { RowLink } from '@/components/row-link';
import { Term } from '@/components/term';
import { useState } from 'react';
import type { TStatsResponse } from '@/lib/contract/api/stats';
import { alarmLevel, alarmSample, alarmText, decideAlarm, heldSince, type AlarmSample, type AlarmState } from '@/lib/ui/alarm';
import { fmtDuration, fmtInt } from '@/lib/ui/format';
import { useUiSettings } from '@/lib/ui/ui-settings';
import { fmtTime, type TimeZoneMode } from '@/lib/ui/format';
import type { Staleness } from '@/lib/ui/connection';
import { useDataNow, useStaleness } from '@/lib/ui/use-staleness';
import { stuckSessionsParams } from '@/lib/ui/stuck-sessions-link';
import { useUrlState, type ParamPatch } from '@/lib/ui/url-state';

export interface AlarmView {
  state: AlarmState;
  sample: AlarmSample;
}

/** One fold per stats response, carrying the previous state so the alarm does not flip. */
export function useAlarm(s: TStatsResponse | undefined): AlarmView | null {
  const [held, setHeld] = useState<{ stats: TStatsResponse; key: string; view: AlarmView } | null>(null);
  if (!s) return null;
  if (held?.stats === s) return held.view;
  const sample = alarmSample(s);
  // The hysteresis holds for one view: another server filter or range starts afresh.
  const key = `${s.server ?? ''}|${s.range.fromInput ?? s.range.from}|${s.range.toInput ?? s.range.to}`;
  const view = { state: decideAlarm(held?.key === key ? held.view.state : null, sample), sample };
  // Derived state updated during render (React's documented pattern): one decision per response.
  setHeld({ stats: s, key, view });
  return view;
}

export function IdleTime({ stats, receivedAt }: { stats: TStatsResponse; receivedAt: number }) {
  // Each ongoing deadlock adds a second of idle time per second (while the data is current).
  const now = useDataNow(1000);
  const ms = stats.deadlocks.idleMs + stats.deadlocks.ongoing * Math.max(0, now - receivedAt);
  return (
    <span className="num" data-testid="deadlock-idle">
      {fmtDuration(ms)}
    </span>
  );
}

/**
 * "as of 12:04:31" while the page is stale. Always laid out (hidden when current), so the alarm
 * does not change size, and nothing under it moves, when the connection drops or comes back.
 */
function AsOf({ stale, tz }: { stale: Staleness; tz: TimeZoneMode }) {
  return (
    <span
      className="small as-of"
      data-testid="alarm-as-of"
      data-stale={stale.stale}
      aria-hidden={!stale.stale}
      style={{ visibility: stale.stale ? 'visible' : 'hidden' }}
    >
      {' '}
      · as of {stale.asOf !== null ? fmtTime(stale.asOf, tz, false) : '--:--:--'}
    </span>
  );
}

export function AlarmBanner({
  alarm,
  stats,
  receivedAt,
  sessionsLink,
}: {
  alarm: AlarmView;
  stats: TStatsResponse;
  receivedAt: number;
  sessionsLink: (extra: ParamPatch) => string;
}) {
  // Frozen while the page is stale: with no data behind it, the alarm keeps the state it had.
  const now = useDataNow(1000);
  const stale = useStaleness();
  const { tz } = useUrlState().global;
  const { alarmHoldMs } = useUiSettings();
  // The server's clock, carried on by the browser's between refreshes ("25 s ago" counts on, and a
  // held red steps down when its hold expires even if no new answer arrives).
  const serverNow = alarm.sample.at + Math.max(0, now - receivedAt);
  const level = alarmLevel(alarm.state, serverNow, alarmHoldMs);
  const text = alarmText(alarm.sample, serverNow, heldSince(alarm.state, serverNow, alarmHoldMs));
  const stuck = stats.deadlocks.stuckNow;
  if (level === 'calm')
    return (
      <div className="calm" data-testid="no-ongoing-deadlocks" data-level="calm">
        <strong>●</strong> No session stuck at the upgrade boundary, no deadlock and no naive answer in this range.
        <AsOf stale={stale} tz={tz} />
      </div>
    );
  return (
    <div
      className={`alarm ${level === 'warn' ? 'warn-level' : ''}`}
      role="region"
      aria-label={level === 'stuck' ? 'Alarm' : 'Warning'}
      data-testid={stuck > 0 ? 'ongoing-deadlocks' : 'alarm'}
      data-level={level}
      // The server's clock of the answer shown and of this render: what the hold is measured by (tests read them).
      data-sample-at={alarm.sample.at}
      data-server-now={serverNow}
    >
      <Term
        className="alarm-figure"
        testId="alarm-count"
        hint={
          stuck > 0
            ? 'Sessions stuck at the upgrade boundary right now: a naive resume left them waiting for a handshake.'
            : 'No session is stuck right now; the banner stays amber because a deadlock or a naive answer happened in this range.'
        }
      >
        <span className="alarm-count num">{fmtInt(stuck)}</span>
        <span className="alarm-count-label">stuck now</span>
      </Term>
      <div className="alarm-text">
        {/* Announced when the headline changes; the details tick every second and would be read out each time. */}
        <strong role="alert" data-testid="alarm-headline">
          {keepWhole(text.headline)}
        </strong>
        <span className="small" data-testid="alarm-details">
          {' '}
          · {keepWhole(text.details.join(' · '))}
          <AsOf stale={stale} tz={tz} />
        </span>
        {stuck > 0 && (
          <div className="small">
            A naive resume handed back an idle SSE stream after <code>upgrade.accepted</code>; the client waits for a WebSocket handshake
            that will not come (until the idle timeout).
          </div>
        )}
      </div>
      <RowLink
        className="btn"
        href={sessionsLink(stuck > 0 ? stuckSessionsParams(stats.deadlocks.stuckSince, stats.range.from) : { flag: 'deadlock' })}
        data-testid="ongoing-deadlocks-link"
      >
        {stuck > 0 ? 'Show stuck sessions →' : 'Show deadlocks →'}
      </RowLink>
    </div>
  );
}
