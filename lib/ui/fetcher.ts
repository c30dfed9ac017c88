'use client';
/**
 * One fetch helper for the dashboard: same-origin, cookie session, JSON errors of
 * the form {"error": {"code", "message"}} turned into UiApiError, 401 sends the
 * browser to the login page (keeping where it was), optional zod validation of
 * the body so a contract drift shows up as a clear error instead of a blank chart.
 */
import type { z } from 'zod';

export class UiApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'UiApiError';
  }
}

export function loginHref(): string {
  if (typeof window === 'undefined') return '/login';
  const here = `${window.location.pathname}${window.location.search}`;
  return `/login?next=${encodeURIComponent(here)}`;
}

let redirecting = false;
function redirectToLogin() {
  if (typeof window === 'undefined' || redirecting) return;
  if (window.location.pathname.startsWith('/login')) return;
  redirecting = true;
  window.location.assign(loginHref());
}

async function errorFrom(res: Response): Promise<UiApiError> {
  let code = `http_${res.status}`;
  let message = `${res.status} ${res.statusText}`.trim();
  try {
    const body = (await res.json()) as { error?: { code?: string; message?: string } };
    if (body?.error?.code) code = body.error.code;
    if (body?.error?.message) message = body.error.message;
  } catch {
    /* not JSON */
  }
  return new UiApiError(res.status, code, message);
}

export interface FetchOptions {
  method?: string;
  body?: unknown;
  signal?: AbortSignal;
  /** Do not redirect to /login on 401 (the login page itself). */
  noAuthRedirect?: boolean;
}

export async function apiFetch<T = unknown>(url: string, schema?: z.ZodType<T>, opts: FetchOptions = {}): Promise<T> {
  const method = opts.method ?? 'GET';
  const headers: Record<string, string> = { accept: 'application/json' };
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  // Mutations are protected by a same-origin check on the Origin header (lib/auth/csrf.ts),
  // which the browser sends by itself on same-origin fetches: nothing to add here.
  const res = await fetch(url, {
    method,
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    credentials: 'same-origin',
    cache: 'no-store',
    signal: opts.signal,
  });
  if (res.status === 401 && !opts.noAuthRedirect) {
    redirectToLogin();
    throw new UiApiError(401, 'unauthenticated', 'Your session has ended; sign in again.');
  }
  if (!res.ok) throw await errorFrom(res);
  if (res.status === 204) return undefined as T;
  const json: unknown = await res.json();
  if (!schema) return json as T;
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new UiApiError(
      500,
      'contract_mismatch',
      `Unexpected response from ${url.split('?')[0]}: ${first ? `${first.path.join('.')}: ${first.message}` : 'invalid body'}`,
    );
  }
  return parsed.data;
}
