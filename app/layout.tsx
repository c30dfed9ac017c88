import type { Metadata, Viewport } from 'next';
import type { ReactNode } from 'react';
import { cookies, headers } from 'next/headers';
import { Providers } from '@/components/providers';
import { settings } from '@/lib/config/settings';
import { THEME_BOOT_SCRIPT } from '@/components/shell/theme-script';
import { NONCE_HEADER } from '@/lib/http/security-headers';
import { ZONE_BOOT_SCRIPT, ZONE_COOKIE, renderZoneFrom } from '@/lib/ui/zone-cookie';
import { serverRenderTime } from '@/lib/ui/server-prefetch';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Doorwatch', template: '%s · Doorwatch' },
  description: 'The upgrade boundary of your MCP fleet, during an incident',
};

export const viewport: Viewport = {
  colorScheme: 'light dark',
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // proxy.ts sets a fresh nonce per request; the CSP allows no inline script without it.
  const nonce = (await headers()).get(NONCE_HEADER) ?? undefined;
  // Local times are written in the browser's zone (its boot script keeps the cookie current).
  const renderZone = renderZoneFrom((await cookies()).get(ZONE_COOKIE)?.value);
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: THEME_BOOT_SCRIPT + ZONE_BOOT_SCRIPT }} />
      </head>
      <body>
        <Providers renderTime={serverRenderTime()} renderZone={renderZone} uiSettings={{ alarmHoldMs: settings().DOORWATCH_ALARM_HOLD_MS }}>
          {children}
        </Providers>
      </body>
    </html>
  );
}
