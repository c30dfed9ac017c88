import { HydrationBoundary } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { GET as meRoute } from '@/app/api/auth/me/route';
import { GET as alertRulesRoute } from '@/app/api/v1/alerts/rules/route';
import { AppShell } from '@/components/shell/app-shell';
import { alertRulesQuery, meQuery } from '@/lib/ui/query-defs';
import { prefetchReads } from '@/lib/ui/server-prefetch';

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  // The shell's own reads (who is signed in: the Settings link; firing alerts: the banner) are in
  // the first HTML too, so the top bar does not change once the browser has loaded.
  const state = await prefetchReads([
    { def: meQuery(), route: meRoute },
    { def: alertRulesQuery(), route: alertRulesRoute },
  ]);
  return (
    <HydrationBoundary state={state}>
      <AppShell>{children}</AppShell>
    </HydrationBoundary>
  );
}
