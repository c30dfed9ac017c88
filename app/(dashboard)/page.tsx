import { HydrationBoundary } from '@tanstack/react-query';
import { GET as serversRoute } from '@/app/api/v1/servers/route';
import { GET as statsRoute } from '@/app/api/v1/stats/route';
import { OverviewView } from '@/components/overview/overview-view';
import { overviewStatsParams, serversQuery, statsQuery } from '@/lib/ui/query-defs';
import { prefetchReads, serverRenderTime } from '@/lib/ui/server-prefetch';
import { readGlobal } from '@/lib/ui/global-params';
import { searchParamsOf, type PageSearchParams } from '@/lib/ui/page-search-params';

export default async function OverviewPage({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  const g = readGlobal(searchParamsOf(await searchParams));
  const state = await prefetchReads([
    { def: statsQuery(overviewStatsParams(g, serverRenderTime())), route: statsRoute },
    { def: serversQuery(), route: serversRoute },
  ]);
  return (
    <HydrationBoundary state={state}>
      <OverviewView />
    </HydrationBoundary>
  );
}
