import { notFound, redirect } from 'next/navigation';
import { GET as serversRoute } from '@/app/api/v1/servers/route';
import { safeDecode } from '@/lib/ui/format';
import { GLOBAL_PARAMS } from '@/lib/ui/global-params';
import { searchParamsOf, type PageSearchParams } from '@/lib/ui/page-search-params';
import { serversQuery } from '@/lib/ui/query-defs';
import { prefetch } from '@/lib/ui/server-prefetch';
import type { TServerListResponse } from '@/lib/contract/api/servers';

/**
 * A server's address (/servers/demo-us-1): its view is the overview filtered to it, so a known
 * server redirects there with the link's range kept; an unknown one is a 404 naming it (./not-found.tsx).
 */
export default async function ServerPage({
  params,
  searchParams,
}: {
  params: Promise<{ server: string }>;
  searchParams: Promise<PageSearchParams>;
}) {
  const server = safeDecode((await params).server);
  const [{ outcomes }, sp] = await Promise.all([prefetch([{ def: serversQuery(), route: serversRoute }]), searchParams]);
  const list = outcomes[0].data as TServerListResponse | undefined;
  // Without the list (a failed read) the overview's own notice says whether the server exists.
  if (list && !list.servers.some((s) => s.name === server)) notFound();
  const query = new URLSearchParams();
  const given = searchParamsOf(sp);
  for (const k of GLOBAL_PARAMS) if (k !== 'server' && given.get(k)) query.set(k, given.get(k)!);
  query.set('server', server);
  redirect(`/?${query.toString()}`);
}
