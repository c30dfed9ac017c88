'use client';
// Every event of the session in a table: time, the gap since the first, type, data, the side each
// end is on after it, and when Doorwatch received it. A row click selects the event on the timeline too.
import { DataTable } from '@/components/panel';
import type { TTimelineEvent } from '@/lib/contract/api/session-detail';
import { fmtDateTime, fmtDuration, fmtTime, type TimeZoneMode } from '@/lib/ui/format';
import type { Side, SideStep } from '@/lib/boundary/sides';
import { SIDE_LABELS } from '@/lib/ui/sides';

function SideCell({ side }: { side: Side }) {
  return (
    <span className="nowrap">
      <span
        className={`side-pill`}
        style={{ background: `var(--c-${side === 'sse' ? 'sse' : side === 'ws' ? 'ws' : side === 'burned' ? 'burned' : 'drops'})` }}
      />
      {SIDE_LABELS[side]}
    </span>
  );
}

function dataSummary(e: TTimelineEvent): string {
  const entries = Object.entries(e.data);
  if (!entries.length) return '';
  return entries.map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`).join('  ');
}

export function EventTable({
  events,
  sides,
  tz,
  selected,
  onSelect,
}: {
  events: TTimelineEvent[];
  sides: SideStep[];
  tz: TimeZoneMode;
  selected: number | null;
  onSelect: (i: number) => void;
}) {
  const t0 = events.length ? Date.parse(events[0].at) : 0;
  return (
    <DataTable
      testId="event-table"
      className="event-table"
      head={
        <>
          <th className="num">#</th>
          <th>Time ({tz === 'utc' ? 'UTC' : 'local'})</th>
          <th className="num" title="Time since the first event (cumulative); the timeline's +Δ are gaps between neighbours">
            +Δ since first
          </th>
          <th>Event</th>
          <th>Data</th>
          <th>Client</th>
          <th>Server</th>
          <th>Received</th>
        </>
      }
    >
      {events.map((e, i) => {
        const sd = sides[i];
        const at = Date.parse(e.at);
        return (
          <tr
            key={e.id}
            className={selected === i ? 'selected-row' : ''}
            onClick={() => onSelect(i)}
            data-testid="event-row"
            data-type={e.type}
          >
            <td className="num">{e.seq ?? i + 1}</td>
            <td className="ts mono" title={fmtDateTime(e.at, tz, true)}>
              {fmtTime(e.at, tz)}
            </td>
            <td className="num">{i === 0 ? '' : `+${fmtDuration(at - t0)}`}</td>
            <td>
              <span
                className={
                  e.type === 'upgrade.accepted'
                    ? 'chip warn'
                    : e.type === 'resume.refused'
                      ? 'chip good'
                      : sd.naiveAnswer
                        ? 'chip bad'
                        : e.type === 'upgrade.rejected'
                          ? 'chip violet'
                          : 'mono'
                }
              >
                {e.type}
              </span>
              {sd.door && !sd.dual && (
                <span className="small muted">
                  {' '}
                  the door
                  {typeof e.data.eventId === 'number' || typeof e.data.eventId === 'string' ? ` · SSE id ${e.data.eventId}` : ''}
                </span>
              )}
              {sd.dual && <span className="small bad-text"> second negotiation</span>}
            </td>
            <td className="mono small" style={{ whiteSpace: 'normal', maxWidth: 320 }}>
              {dataSummary(e)}
            </td>
            <td className={sd.disagree ? 'bad-text' : ''}>
              <SideCell side={sd.client} />
            </td>
            <td className={sd.disagree ? 'bad-text' : ''}>
              <SideCell side={sd.server} />
            </td>
            <td className="ts small muted" title="When Doorwatch received it">
              {fmtTime(e.receivedAt, tz)}
            </td>
          </tr>
        );
      })}
    </DataTable>
  );
}
