import { Suspense, type ReactNode } from 'react';
import { AppShell } from '@/components/shell/app-shell';
import { PageLoading } from '@/components/states';

export default function DashboardLayout({ children }: { children: ReactNode }) {
  return (
    <Suspense fallback={<PageLoading />}>
      <AppShell>
        <Suspense fallback={<PageLoading />}>{children}</Suspense>
      </AppShell>
    </Suspense>
  );
}
