// The operator's own zone, the same on both sides of hydration. The boot script in <head>
// (lib/ui/zone-cookie.ts) stores the browser's IANA zone in the `doorwatch-tz` cookie;
// the server renders "local" times in it (app/layout.tsx reads it, <Providers> hands it over), and
// the hydrating browser formats in that same zone, so the texts match (React's #418 otherwise: a
// server in UTC wrote 10:04 where a browser in New York reads 05:04). Once hydrated the browser
// uses its own zone, which is the same one unless the cookie was missing or stale (a first visit,
// a laptop that changed zones): then "local" times re-render once, after hydration.
import { createContext, useContext, useSyncExternalStore } from 'react';
import { RUNTIME_ZONE } from '@/lib/time/zone';
import type { TimeZoneMode } from './format';

/** The zone the server rendered "local" times in (null outside a server-rendered tree). */
export const RenderZoneContext = createContext<string | null>(null);

const subscribeNothing = () => () => {};
const browserZone = () => RUNTIME_ZONE ?? 'local';

/** The zone to show times in for the URL's choice ('utc' stays UTC). */
export function useDisplayZone(mode: 'local' | 'utc'): TimeZoneMode {
  const renderZone = useContext(RenderZoneContext);
  // Hydration reads the server snapshot, then React re-renders only if the browser's differs.
  const zone = useSyncExternalStore(subscribeNothing, browserZone, () => renderZone ?? RUNTIME_ZONE ?? 'UTC');
  return mode === 'utc' ? 'utc' : zone;
}
