// The origin of links leaving Doorwatch (notifications' sessionsUrl, Slack links): the first
// DOORWATCH_PUBLIC_ORIGIN, else the address the app is bound to (HOST and PORT; a wildcard bind
// names this machine's host name instead, which a wildcard address cannot be reached on). Without
// DOORWATCH_PUBLIC_ORIGIN the guess is said once at start-up, so nobody finds out from a dead link.
import { hostname } from 'node:os';
import { settings } from '@/lib/config/settings';
import { componentLogger } from '@/lib/log/logger';

export interface LinkOrigin {
  origin: string;
  /** false: guessed from the bind address (DOORWATCH_PUBLIC_ORIGIN is not set). */
  configured: boolean;
}

const WILDCARDS = new Set(['0.0.0.0', '::', '[::]', '']);

/** Pure: the settings' answer (`machine` is this machine's host name). */
export function linkOriginFrom(s: { DOORWATCH_PUBLIC_ORIGIN: readonly string[]; HOST: string; PORT: number }, machine: string): LinkOrigin {
  const configured = s.DOORWATCH_PUBLIC_ORIGIN[0];
  if (configured) return { origin: configured, configured: true };
  const host = WILDCARDS.has(s.HOST) ? machine : s.HOST;
  const bracketed = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return { origin: `http://${bracketed.toLowerCase()}:${s.PORT}`, configured: false };
}

export function linkOrigin(): LinkOrigin {
  return linkOriginFrom(settings(), hostname());
}

/** Logs where links will point when DOORWATCH_PUBLIC_ORIGIN is not set (called once at start-up). */
export function warnWithoutPublicOrigin(): void {
  const o = linkOrigin();
  if (o.configured) return;
  componentLogger('alerts').warn(
    { linkOrigin: o.origin },
    `DOORWATCH_PUBLIC_ORIGIN is not set: links in alert notifications will point at ${o.origin} (the bound address); set it to the address people open the dashboard on`,
  );
}
