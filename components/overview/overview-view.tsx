'use client';
// The overview: the range's headline figures and the per-bucket charts, every panel on one time axis
// (chart-frame.tsx), each figure a link to the sessions it counts.
import { useRouter } from 'next/navigation';
import { useMemo } from 'react';
import { Empty, ErrorState, Skeleton } from '@/components/states';
import { formatInstant } from '@/lib/time/instant';
import { isServiceFailure } from '@/lib/ui/connection';
import { overviewStatsParams } from '@/lib/ui/query-defs';
import { useAnnotations, useMe, useServers, useStats } from '@/lib/ui/queries';
import { useNow } from '@/lib/ui/use-now';
import { readSplit, useUrlState, type ParamPatch } from '@/lib/ui/url-state';
import { AnnotationForm } from './annotation-form';
import { AlarmBanner, useAlarm } from './alarm-banner';
import { useRefetchAt } from '@/lib/ui/use-refetch-at';
import { BoundaryPanel } from './boundary-panel';
import { useChartFrame } from './chart-frame';
import { DeadlocksPanel } from './deadlocks-panel';
import { OverviewHead } from './overview-head';
import { RangeNotices } from './range-notices';
import { RefusalPanel } from './refusal-panel';
import { RenegotiationPanel } from './renegotiation-panel';
import { ServerStrip } from './server-strip';
import { Tiles } from './tiles';

export function OverviewView() {
  const { global, link, set, sp } = useUrlState();
  const split = readSplit(sp);
  const router = useRouter();
  const { from, to, server, refresh, tz } = global;
  // The server's chooser over the server's resolution of the range: the bucket it would pick itself.
  const now = useNow(60_000);
  const statsParams = useMemo(() => overviewStatsParams({ from, to, server }, now), [from, to, server, now]);
  const stats = useStats(statsParams, refresh);
  const servers = useServers(refresh);
  // The charts' markers: annotations and first-reported versions over the same window.
  const annotations = useAnnotations({ from, to, ...(server ? { server } : {}) }, refresh);
  const admin = useMe().data?.operator.role === 'admin';

  const sessionsLink = (extra: ParamPatch) => link('/sessions', extra);
  const drill = (fromMs: number, toMs: number, flag: string | undefined, fallback: string, barServer?: string) =>
    router.push(
      sessionsLink({
        from: formatInstant(fromMs),
        to: formatInstant(toMs),
        flag: flag ?? fallback,
        ...(barServer ? { server: barServer } : {}),
      }),
    );

  const s = stats.data;
  const alarm = useAlarm(s);
  // A naive resume becomes a deadlock by the clock alone: the stats say when the next one turns.
  useRefetchAt(s?.deadlocks.nextOngoingAt ?? null, s?.now ?? null, stats.dataUpdatedAt, stats.refetch, refresh !== 'off');
  const { frame, chartRef } = useChartFrame(s, { split, tz, drill, sessionsLink, annotations: annotations.data });
  const serverNames = servers.data?.servers.map((x) => x.name) ?? [];

  return (
    <div className="stack" data-testid="overview">
      <OverviewHead stats={s} split={split} server={server} serverNames={serverNames} set={set} />

      {stats.isError && !s && (
        <div className="panel">
          <ErrorState error={stats.error} onRetry={() => void stats.refetch()} />
        </div>
      )}
      {stats.isPending && (
        <div className="stack">
          <Skeleton height={52} />
          <Skeleton height={70} />
          <div className="grid grid-2">
            <Skeleton height={240} />
            <Skeleton height={240} />
          </div>
        </div>
      )}

      {s && (
        <div className={`stack ${stats.isPlaceholderData ? 'stale' : ''}`}>
          {/* A failed refresh with figures on screen: the shell marks them stale in place and says why
              (components/shell/connection-notice.tsx); an error box here would push the page down. */}
          {stats.isError && !isServiceFailure(stats.error) && (
            <div className="panel">
              <ErrorState error={stats.error} onRetry={() => void stats.refetch()} />
            </div>
          )}
          {alarm && <AlarmBanner alarm={alarm} stats={s} receivedAt={stats.dataUpdatedAt} sessionsLink={sessionsLink} />}

          <ServerStrip servers={servers.data} byServer={s.byServer ?? []} filter={server} rangeFrom={s.range.from} tz={tz} />

          <RangeNotices stats={s} servers={servers.data} server={server} link={link} />

          <Tiles stats={s} receivedAt={stats.dataUpdatedAt} sessionsLink={sessionsLink} />

          {s.events === 0 && s.sessions === 0 ? (
            <div className="panel">
              <Empty title="No events in this range">
                Nothing was reported {s.server ? `by ${s.server} ` : ''}between these times. Widen the range (z zooms out) or check that
                servers post to <code>/api/v1/ingest/&lt;server&gt;</code>.
              </Empty>
            </div>
          ) : null}

          {admin && (
            <div className="panel panel-body">
              <AnnotationForm server={server} />
            </div>
          )}

          <div className="grid grid-2">
            <BoundaryPanel frame={frame} bucketMs={s.bucketMs} chartRef={chartRef} />
            <DeadlocksPanel frame={frame} stats={s} />
          </div>

          <div className="grid grid-2">
            <RefusalPanel frame={frame} stats={s} />
            <RenegotiationPanel frame={frame} stats={s} />
          </div>
        </div>
      )}
    </div>
  );
}
