import type { Metadata } from 'next';
import { HydrationBoundary } from '@tanstack/react-query';
import { GET as sessionsRoute } from '@/app/api/v1/sessions/route';
import { SessionsView } from '@/components/sessions/sessions-view';
import { readGlobal } from '@/lib/ui/global-params';
import { searchParamsOf, type PageSearchParams } from '@/lib/ui/page-search-params';
import { sessionsQuery } from '@/lib/ui/query-defs';
import { prefetchReads } from '@/lib/ui/server-prefetch';
import { sessionListParams } from '@/lib/ui/session-list-params';

export const metadata: Metadata = { title: 'Sessions' };

// The page of rows the URL asks for is answered in the server render (the list is the step between
// a chart and a timeline during an incident: its rows come with the HTML, not after the JS).
export default async function SessionsPage({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  const sp = searchParamsOf(await searchParams);
  const state = await prefetchReads([{ def: sessionsQuery(sessionListParams((k) => sp.get(k), readGlobal(sp))), route: sessionsRoute }]);
  return (
    <HydrationBoundary state={state}>
      <SessionsView />
    </HydrationBoundary>
  );
}
