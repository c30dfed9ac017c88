'use client';
// One session: its heading and callouts, the renegotiation chain, and the timeline with its event table.
import { RowLink } from '@/components/row-link';
import { useMemo } from 'react';
import { Empty, ErrorState, Loading } from '@/components/states';
import { UiApiError } from '@/lib/ui/fetcher';
import { useSessionDetail } from '@/lib/ui/queries';
import { timelineSides } from '@/lib/ui/sides';
import { formatInstant } from '@/lib/time/instant';
import { useUrlState } from '@/lib/ui/url-state';
import { ChainPanel } from './chain-panel';
import { SessionCallouts } from './session-callouts';
import { SessionHead } from './session-head';
import { TimelinePanel } from './timeline-panel';
import { useSessionClock } from './use-session-clock';

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
  const { global, link } = useUrlState();
  const { tz, refresh } = global;
  const q = useSessionDetail(server, token, refresh);
  const detail = q.data;
  const sides = useMemo(() => (detail ? timelineSides(detail.timeline) : []), [detail]);
  const clock = useSessionClock(detail, q.dataUpdatedAt);

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
  if (!detail || !clock.session) return null;

  // The session as of the page's one clock: every ongoing duration below reads it.
  const s = clock.session;
  const nowMs = clock.nowMs;
  const first = Date.parse(s.firstEventAt);
  const last = Date.parse(s.lastEventAt ?? s.firstEventAt);
  // A window around this session for "see it on the overview / in the list".
  const pad = Math.max(60_000, (last - first) * 0.5);
  const around = { from: formatInstant(first - pad), to: formatInstant(Math.max(last + pad, s.deadlock?.ongoing ? nowMs : 0)) };

  return (
    <div className="stack" data-testid="session-detail">
      <SessionHead session={s} sides={sides} around={around} link={link} />
      <SessionCallouts session={s} eventCount={detail.timeline.length} tz={tz} />
      <ChainPanel detail={detail} tz={tz} link={link} />
      <TimelinePanel detail={detail} session={s} nowMs={nowMs} sides={sides} tz={tz} />
    </div>
  );
}
