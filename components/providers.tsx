'use client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { runBootScriptIfSkipped } from '@/components/shell/boot-fallback';
import { UiApiError } from '@/lib/ui/fetcher';
import { RenderZoneContext } from '@/lib/ui/display-zone';
import { RenderTimeContext } from '@/lib/ui/use-now';
import { UiSettingsContext, type UiSettings } from '@/lib/ui/ui-settings';

/**
 * `renderTime`: when the server rendered this page (the hydrating render reads the same clock, lib/ui/use-now.ts);
 * `renderZone`: the zone it wrote local times in (the hydrating render uses the same one, lib/ui/display-zone.ts);
 * `uiSettings`: the server settings rendering depends on (lib/ui/ui-settings.ts).
 */
export function Providers({
  children,
  renderTime,
  renderZone,
  uiSettings,
}: {
  children: ReactNode;
  renderTime: number;
  renderZone: string;
  uiSettings: UiSettings;
}) {
  const [client] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          queries: {
            staleTime: 2_000,
            // Keep the previous numbers on screen while a new range loads (no flashing to empty).
            placeholderData: (prev: unknown) => prev,
            refetchOnWindowFocus: true,
            // Auto-refresh stops while the tab is hidden (TanStack's default, stated for the reader).
            refetchIntervalInBackground: false,
            retry: (count, err) => !(err instanceof UiApiError && err.status < 500) && count < 2,
          },
          // A change an operator makes is sent at once and fails visibly when Doorwatch does not answer,
          // never parked until it does (queries hold still while the live probe finds it unreachable:
          // components/shell/live-updates.tsx).
          mutations: { networkMode: 'always' },
        },
      }),
  );
  // The server renders real content now (lib/ui/server-prefetch.ts): a control clicked before
  // React has hydrated does nothing. Marked once hydrated, for tests and scripts that drive the page.
  useEffect(() => {
    runBootScriptIfSkipped();
    document.documentElement.dataset.hydrated = '1';
  }, []);
  return (
    <QueryClientProvider client={client}>
      <RenderTimeContext value={renderTime}>
        <RenderZoneContext value={renderZone}>
          <UiSettingsContext value={uiSettings}>{children}</UiSettingsContext>
        </RenderZoneContext>
      </RenderTimeContext>
    </QueryClientProvider>
  );
}
