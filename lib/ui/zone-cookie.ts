// The browser's zone, told to the server: a boot script in <head> keeps the `doorwatch-tz` cookie
// at the browser's IANA zone, and the server renders local times in it (lib/ui/display-zone.ts).
// Free of React so the root layout (a server component) can use it.
import { RUNTIME_ZONE, isZoneName } from '@/lib/time/zone';

export const ZONE_COOKIE = 'doorwatch-tz';

/** Runs before anything renders; rewrites the cookie only when the zone changed. A year, Lax, the whole site. */
export const ZONE_BOOT_SCRIPT = `(function(){try{var z=Intl.DateTimeFormat().resolvedOptions().timeZone;if(z&&document.cookie.indexOf('${ZONE_COOKIE}='+encodeURIComponent(z))<0){document.cookie='${ZONE_COOKIE}='+encodeURIComponent(z)+';path=/;max-age=31536000;samesite=lax';}}catch(e){}})();`;

/** The zone the server writes local times in: the browser's, from its cookie, when it names one; else the server's own. */
export function renderZoneFrom(cookieValue: string | undefined): string {
  return cookieValue && isZoneName(cookieValue) ? cookieValue : (RUNTIME_ZONE ?? 'UTC');
}
