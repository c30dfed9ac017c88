import type { Metadata } from 'next';
import { HydrationBoundary } from '@tanstack/react-query';
import { GET as auditRoute } from '@/app/api/v1/audit/route';
import { AuditView } from '@/components/audit/audit-view';
import { auditListParams } from '@/lib/ui/audit-params';
import { readGlobal } from '@/lib/ui/global-params';
import { searchParamsOf, type PageSearchParams } from '@/lib/ui/page-search-params';
import { auditQuery } from '@/lib/ui/query-defs';
import { prefetchReads } from '@/lib/ui/server-prefetch';

export const metadata: Metadata = { title: 'Audit log' };

// The first page of entries the URL asks for comes with the HTML. A viewer's read is refused (403)
// and left out; the view shows the admins-only notice from the signed-in operator's role.
export default async function AuditPage({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  const sp = searchParamsOf(await searchParams);
  const state = await prefetchReads([{ def: auditQuery(auditListParams((k) => sp.get(k), readGlobal(sp))), route: auditRoute }]);
  return (
    <HydrationBoundary state={state}>
      <AuditView />
    </HydrationBoundary>
  );
}
