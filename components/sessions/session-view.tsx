'use client';
import { RowLink } from '@/components/row-link';
import { LiveDuration } from '@/components/live-duration';
import { useMemo, useState } from 'react';
import { DataTable, Panel } from '@/components/panel';
import { Flags, StateChip } from '@/components/sessions/flag-chip';
import { Empty, ErrorState, Loading } from '@/components/states';
import type { TChainLink, TTimelineEvent } from '@/lib/contract/api/session-detail';
import { UiApiError } from '@/lib/ui/fetcher';
import { fmtDateTime, fmtDuration, fmtLatency, fmtTime, shortToken, tzLabel, type TimeZoneMode } from '@/lib/ui/format';
import { useSessionDetail } from '@/lib/ui/queries';
import { SIDE_LABELS, deriveSides, type Side } from '@/lib/ui/sides';
import { naiveShape } from '@/lib/boundary/sides';
import { formatInstant } from '@/lib/time/instant';
import { useUrlState } from '@/lib/ui/url-state';
import { autoSpacing, formatZoom, parseSpacing, parseZoom, type Spacing, type ZoomWindow } from '@/lib/ui/timeline-axis';
import { SideLegend, TimelineChart } from './timeline-chart';

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

function ChainNode({ link: l, href, current, tz }: { link: TChainLink; href: string | null; current?: boolean; tz: TimeZoneMode }) {
  const body = (
    <>
      <span className="mono small">{shortToken(l.token, 26)}</span>
      <span className="small muted">
        {l.server} · opened {fmtTime(l.openedAt, tz, false)}
      </span>
      <Flags flags={l.flags} />
    </>
  );
  return current ? (
    <div className="chain-node current" aria-current="page">
      {body}
    </div>
  ) : (
    <RowLink href={href!} className="chain-node" data-testid="chain-link" data-token={l.token}>
      {body}
    </RowLink>
  );
}

/** A 404: an unknown server (the API's `server_not_found`) or a token this server never reported. */
function SessionNotFound({ server, token, unknownServer }: { server: string; token: string; unknownServer: boolean }) {
  const { link } = useUrlState();
  return (
    <div className="panel">
      {unknownServer ? (
        <Empty title={`There is no server ${server}`}>
          Doorwatch has no server by that name (none is configured and none has reported).{' '}
          <RowLink href={link('/servers')}>See the servers it knows →</RowLink>
        </Empty>
      ) : (
        <Empty title={`No session ${token} on ${server}`}>
          It may not have reported yet, or it belongs to another server.{' '}
          <RowLink href={link(`/tokens/${encodeURIComponent(token)}`)}>Look it up on every server →</RowLink>
        </Empty>
      )}
    </div>
  );
}

export function SessionView({ server, token }: { server: string; token: string }) {
  const { global, link, get, set } = useUrlState();
  const { tz, refresh } = global;
  const q = useSessionDetail(server, token, refresh);
  const [selected, setSelected] = useState<number | null>(null);
  // The timeline's view lives in the URL (`?spacing=`, `?zoom=`), so a link reproduces it; changing
  // it touches only the URL (shallow): the server has nothing to render for it.
  const spacingParam = parseSpacing(get('spacing'));
  const zoomParam = parseZoom(get('zoom'));
  const spacingChoice: Spacing | 'auto' = (spacingParam.ok && spacingParam.value) || 'auto';
  const setSpacing = (v: Spacing | 'auto') => set({ spacing: v === 'auto' ? null : v }, 'push', { shallow: true });
  const setZoom = (z: ZoomWindow | null) => set({ zoom: z ? formatZoom(z) : null }, 'push', { shallow: true });
  const urlProblems = [spacingParam, zoomParam].flatMap((r) => (r.ok ? [] : [r.problem]));

  const detail = q.data;
  const sides = useMemo(() => (detail ? deriveSides(detail.timeline) : []), [detail]);
  const sessionHref = (s: string, t: string) => link(`/servers/${encodeURIComponent(s)}/sessions/${encodeURIComponent(t)}`);

  if (q.isPending) return <Loading label="Loading session…" />;
  if (q.isError && !detail) {
    if (q.error instanceof UiApiError && q.error.status === 404)
      return <SessionNotFound server={server} token={token} unknownServer={q.error.code === 'server_not_found'} />;
    return (
      <div className="panel">
        <ErrorState error={q.error} onRetry={() => void q.refetch()} />
      </div>
    );
  }
  if (!detail) return null;

  const s = detail.session;
  const nowMs = Date.parse(detail.now);
  const events = detail.timeline;
  const spacing: Spacing =
    spacingChoice === 'auto'
      ? autoSpacing(
          events.map((e) => Date.parse(e.at)),
          s.deadlock?.ongoing ? nowMs : Date.parse(events[events.length - 1]?.at ?? detail.now),
        )
      : spacingChoice;
  const preds = detail.chain.predecessors;
  const succs = detail.chain.successors;
  const t0 = events.length ? Date.parse(events[0].at) : 0;
  const first = Date.parse(s.firstEventAt);
  const last = Date.parse(s.lastEventAt ?? s.firstEventAt);
  // A window around this session for "see it on the overview / in the list".
  const pad = Math.max(60_000, (last - first) * 0.5);
  const around = { from: formatInstant(first - pad), to: formatInstant(Math.max(last + pad, s.deadlock?.ongoing ? nowMs : 0)) };

  return (
    <div className="stack" data-testid="session-detail">
      <div className="page-head">
        <h1>
          Session{' '}
          <span className="mono" style={{ fontSize: 15 }} data-testid="session-token">
            {s.token}
          </span>
        </h1>
        <span className="sub">
          on{' '}
          <RowLink href={link('/sessions', { server: s.server })} className="mono">
            {s.server}
          </RowLink>
        </span>
        <StateChip state={s.state} />
        <Flags flags={s.flags} />
        <span className="row gap" style={{ marginLeft: 'auto' }}>
          <RowLink className="btn btn-xs" href={link('/', { ...around, server: s.server })} title="Overview around this session">
            Overview at this time
          </RowLink>
          <RowLink className="btn btn-xs" href={link('/sessions', { ...around, server: s.server })}>
            Sessions around it
          </RowLink>
        </span>
      </div>

      {s.deadlock?.ongoing && (
        <div className="alarm" role="alert">
          <span className="alarm-count">●</span>
          <div className="alarm-text">
            <strong>
              Deadlocked for <LiveDuration ms={s.deadlock.durationMs} receivedAt={q.dataUpdatedAt} testId="deadlocked-for" />
            </strong>
            <div className="small" data-testid="deadlock-shape">
              {naiveShape(sides) === 'server_holds_upgrade' ? (
                <>
                  The server accepted a fresh stream on this token without <code>Last-Event-ID</code> while its{' '}
                  <code>upgrade.accepted</code> was still pending. Both ends are on SSE, but the server still holds the pending upgrade: the
                  token is stuck, and the next negotiation on it collides (409).
                </>
              ) : (
                <>
                  The server accepted a resume after <code>upgrade.accepted</code> and handed back an idle SSE stream; the client is still
                  waiting for a handshake.
                </>
              )}
            </div>
          </div>
        </div>
      )}

      <div className="callouts">
        <div className="tile" style={{ cursor: 'default' }} data-testid="callout-outcome">
          <span className="tile-label">Boundary</span>
          <span className={`tile-value ${s.boundaryOutcome === 'naive_resume' ? 'bad-text' : ''}`} style={{ fontSize: 16 }}>
            {s.boundaryOutcome === null
              ? 'not entered'
              : s.boundaryOutcome === 'refused'
                ? 'refused ✓'
                : s.boundaryOutcome === 'naive_resume'
                  ? 'naive resume ✗'
                  : 'unanswered'}
          </span>
          <span className="tile-sub">
            {s.boundaryAt ? `entered ${fmtTime(s.boundaryAt, tz)}` : 'the client never asked to resume after the upgrade'}
          </span>
        </div>
        <div className="tile" style={{ cursor: 'default' }} data-testid="callout-latency">
          <span className="tile-label">{s.deadlock ? 'Deadlock' : 'Refusal latency'}</span>
          <span className={`tile-value ${s.deadlock ? 'bad-text' : ''}`} style={{ fontSize: 16 }}>
            {s.deadlock ? fmtDuration(s.deadlock.durationMs) : fmtLatency(s.refusalLatencyMs)}
          </span>
          <span className="tile-sub">
            {s.deadlock
              ? `${fmtTime(s.deadlock.startedAt, tz)} → ${s.deadlock.endedAt ? fmtTime(s.deadlock.endedAt, tz) : 'still stuck'}`
              : s.refusalLatencyMs !== null
                ? 'resume.requested → resume.refused'
                : '—'}
          </span>
        </div>
        <div className="tile" style={{ cursor: 'default' }} data-testid="callout-renegotiation">
          <span className="tile-label">Renegotiation</span>
          <span className="tile-value" style={{ fontSize: 16 }}>
            {s.successorToken ? fmtLatency(s.renegotiationLatencyMs) : s.previousToken ? 'is a successor' : '—'}
          </span>
          <span className="tile-sub">
            {s.successorToken ? 'refusal → new session opened' : s.previousToken ? `of ${shortToken(s.previousToken, 20)}` : 'no new token'}
          </span>
        </div>
        <div className="tile" style={{ cursor: 'default' }}>
          <span className="tile-label">Events</span>
          <span className="tile-value" style={{ fontSize: 16 }}>
            {events.length}
          </span>
          <span className="tile-sub">
            {s.dropCount} drop{s.dropCount === 1 ? '' : 's'}
            {s.dualNegotiationCount ? ` · ${s.dualNegotiationCount} dual` : ''}
          </span>
        </div>
      </div>

      <Panel id="h-chain" title="Renegotiation chain" aside={detail.chain.truncated && 'chain truncated'}>
        <div className="panel-body">
          <div className="chain" data-testid="chain">
            {preds.length === 0 && !s.previousToken && <span className="small muted chain-arrow">no predecessor</span>}
            {preds.length === 0 && s.previousToken && (
              <>
                <RowLink
                  className="chain-node"
                  href={link(`/tokens/${encodeURIComponent(s.previousToken)}`)}
                  data-testid="predecessor-link"
                >
                  <span className="mono small">{shortToken(s.previousToken, 26)}</span>
                  <span className="small muted">predecessor (not stored)</span>
                </RowLink>
                <span className="chain-arrow">→</span>
              </>
            )}
            {preds.map((p) => (
              <span key={`${p.server}/${p.token}`} className="row gap">
                <ChainNode link={p} href={sessionHref(p.server, p.token)} tz={tz} />
                <span className="chain-arrow">
                  → {p.renegotiationLatencyMs !== null && <span className="small">{fmtLatency(p.renegotiationLatencyMs)}</span>}
                </span>
              </span>
            ))}
            <ChainNode
              link={{
                server: s.server,
                token: s.token,
                state: s.state,
                flags: s.flags,
                openedAt: s.openedAt,
                lastEventAt: s.lastEventAt ?? s.firstEventAt,
                refusedAt: s.refusedAt,
                renegotiationLatencyMs: s.renegotiationLatencyMs,
              }}
              href={null}
              current
              tz={tz}
            />
            {succs.map((n, i) => (
              <span key={`${n.server}/${n.token}`} className="row gap">
                <span className="chain-arrow">
                  → {i === 0 && s.renegotiationLatencyMs !== null && <span className="small">{fmtLatency(s.renegotiationLatencyMs)}</span>}
                </span>
                <ChainNode link={n} href={sessionHref(n.server, n.token)} tz={tz} />
              </span>
            ))}
            {succs.length === 0 && s.successorToken && (
              <>
                <span className="chain-arrow">→</span>
                <RowLink
                  className="chain-node"
                  href={sessionHref(s.successorServer ?? s.server, s.successorToken)}
                  data-testid="chain-link"
                  data-token={s.successorToken}
                >
                  <span className="mono small">{shortToken(s.successorToken, 26)}</span>
                  <span className="small muted">successor</span>
                </RowLink>
              </>
            )}
            {succs.length === 0 && !s.successorToken && <span className="small muted chain-arrow">no successor</span>}
          </div>
        </div>
      </Panel>

      <Panel
        id="h-timeline"
        title="Timeline"
        aside={
          <>
            <SideLegend />
            <select
              className="select"
              value={spacingChoice}
              onChange={(e) => setSpacing(e.target.value as Spacing | 'auto')}
              aria-label="Spacing"
              data-testid="spacing-select"
            >
              <option value="auto">Spacing: auto ({spacing === 'time' ? 'time' : 'even'})</option>
              <option value="time">Linear time</option>
              <option value="sequence">Evenly spaced</option>
            </select>
          </>
        }
      >
        <div className="panel-body">
          {urlProblems.length > 0 && (
            <div className="notice small" role="status" data-testid="timeline-url-problem">
              This link’s timeline view is not understood ({urlProblems.join('; ')}): showing the whole session, spacing automatic.{' '}
              <button type="button" className="btn btn-xs" onClick={() => set({ spacing: null, zoom: null }, 'replace', { shallow: true })}>
                Clear it
              </button>
            </div>
          )}
          {events.length === 0 ? (
            <Empty title="No events stored for this token" />
          ) : (
            <TimelineChart
              events={events}
              sides={sides}
              session={s}
              nowMs={nowMs}
              tz={tz}
              spacing={spacing}
              zoom={zoomParam.ok ? zoomParam.value : null}
              onZoom={setZoom}
              selected={selected}
              onSelect={setSelected}
            />
          )}
        </div>
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
                onClick={() => setSelected(i)}
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
        <div className="pager small">
          Times in {tzLabel(tz)}. Sides are derived from the events: after <code>upgrade.accepted</code> both ends are past the door; a
          resume there must be refused.
        </div>
      </Panel>
    </div>
  );
}
