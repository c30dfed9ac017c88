import type { Metadata } from 'next';
import { HydrationBoundary } from '@tanstack/react-query';
import { GET as serversRoute } from '@/app/api/v1/servers/route';
import { ServersView } from '@/components/servers/servers-view';
import { readGlobal } from '@/lib/ui/global-params';
import { searchParamsOf, type PageSearchParams } from '@/lib/ui/page-search-params';
import { serversQuery } from '@/lib/ui/query-defs';
import { prefetchReads } from '@/lib/ui/server-prefetch';

export const metadata: Metadata = { title: 'Servers' };

// The server list for the URL's range comes with the HTML (the same read as the view's hook).
export default async function ServersPage({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  const g = readGlobal(searchParamsOf(await searchParams));
  const state = await prefetchReads([{ def: serversQuery({ from: g.from, to: g.to }), route: serversRoute }]);
  return (
    <HydrationBoundary state={state}>
      <ServersView />
    </HydrationBoundary>
  );
}
