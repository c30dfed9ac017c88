// Browser sessions: an HTTP-only, SameSite=Strict cookie holding `v1.<operatorId>.<expiresMs>.<mac>`.
// The MAC key is derived from the operator's stored token hash (a secret only the database holds),
// mixed with DOORWATCH_SESSION_SECRET when set. So no extra key has to be stored, and revoking the
// token kills its sessions too (the operator row is looked up on every request anyway).
import { createHmac } from 'node:crypto';
import { settings } from '@/lib/config/settings';
import { safeEqual } from './tokens';

export const SESSION_COOKIE = 'dw_session';
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;

function macKey(tokenHash: string): Buffer {
  const pepper = settings().DOORWATCH_SESSION_SECRET;
  return createHmac('sha256', pepper).update(tokenHash).digest();
}

function mac(tokenHash: string, payload: string): string {
  return createHmac('sha256', macKey(tokenHash)).update(payload).digest('base64url');
}

export function signSession(operatorId: string, tokenHash: string, expiresAt: number): string {
  const payload = `v1.${Buffer.from(operatorId).toString('base64url')}.${expiresAt}`;
  return `${payload}.${mac(tokenHash, payload)}`;
}

export interface ParsedSession {
  operatorId: string;
  expiresAt: number;
  payload: string;
  mac: string;
}

/** Structure only (no MAC check — that needs the operator's row). Null if malformed. */
export function parseSession(value: string): ParsedSession | null {
  const parts = value.split('.');
  if (parts.length !== 4 || parts[0] !== 'v1' || !/^\d{1,15}$/.test(parts[2])) return null;
  const operatorId = Buffer.from(parts[1], 'base64url').toString('utf8');
  if (!operatorId) return null;
  return { operatorId, expiresAt: Number(parts[2]), payload: parts.slice(0, 3).join('.'), mac: parts[3] };
}

export function verifySessionMac(s: ParsedSession, tokenHash: string, now = Date.now()): boolean {
  return s.expiresAt > now && safeEqual(mac(tokenHash, s.payload), s.mac);
}

export function readCookie(request: Request, name: string): string | null {
  const header = request.headers.get('cookie');
  if (!header) return null;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i < 0) continue;
    if (part.slice(0, i).trim() === name) {
      try {
        return decodeURIComponent(part.slice(i + 1).trim());
      } catch {
        return null;
      }
    }
  }
  return null;
}

export function isHttps(request: Request): boolean {
  const proto = request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim();
  return (proto ?? new URL(request.url).protocol.replace(':', '')) === 'https';
}

export function sessionCookieHeader(request: Request, value: string, maxAgeSeconds: number): string {
  const attrs = [`${SESSION_COOKIE}=${value}`, 'Path=/', 'HttpOnly', 'SameSite=Strict', `Max-Age=${maxAgeSeconds}`];
  if (isHttps(request)) attrs.push('Secure');
  return attrs.join('; ');
}

export function clearSessionCookieHeader(request: Request): string {
  return sessionCookieHeader(request, '', 0);
}
