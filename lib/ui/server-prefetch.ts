// The server's half of a page's first content: the page's reads are answered during the server
// render and handed to the browser's query cache (TanStack Query's dehydrate → HydrationBoundary),
// so the HTML already holds the data and no client fetch stands between a cold load and its first
// figures. Each read goes through its API route's own handler, in process: the same URL the
// browser's hook would fetch (lib/ui/query-defs.ts), the same authorisation (the login cookie of
// the page request, checked against the operator's row exactly as for an API call), the same
// input parsing, and the answer checked against the same zod schema. A read that fails (401, 404,
// a database outage) is left out, and the browser fetches it and shows the error as before.
import { QueryClient, dehydrate, type DehydratedState } from '@tanstack/react-query';
import { headers } from 'next/headers';
import type { QueryDef } from './query-defs';

/** A route handler as app/api/** exports it (defineRoute). */
export type RouteHandler = (request: Request, context: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

export interface ServerRead {
  def: QueryDef;
  route: RouteHandler;
  /** The route's dynamic segments, decoded (what Next hands a route handler). */
  params?: Record<string, string>;
}

// Route handlers read only the path and query of the URL; the origin is never used.
const ORIGIN = 'http://doorwatch.invalid';

interface ReadOutcome {
  /** The answer, checked against the read's schema, when it succeeded. */
  data?: unknown;
  /** The API's error code when it answered one (`server_not_found`). */
  errorCode?: string;
}

async function read(client: QueryClient, { def, route, params }: ServerRead, cookie: string): Promise<ReadOutcome> {
  try {
    const request = new Request(new URL(def.url, ORIGIN), { headers: { cookie, accept: 'application/json' } });
    const res = await route(request, { params: Promise.resolve(params ?? {}) });
    const body = (await res.json().catch(() => null)) as { error?: { code?: unknown } } | null;
    if (!res.ok) return typeof body?.error?.code === 'string' ? { errorCode: body.error.code } : {};
    const parsed = def.schema.safeParse(body);
    if (!parsed.success) return {};
    client.setQueryData(def.queryKey, parsed.data);
    return { data: parsed.data };
  } catch {
    return {}; // left to the browser
  }
}

export interface Prefetched {
  state: DehydratedState;
  /** Per read, in order: its data, or the API's error code, or neither (no login cookie, no answer). */
  outcomes: ReadOutcome[];
}

/**
 * Runs the reads for the operator of this page request; the dehydrated cache holds those that
 * succeeded. A page that answers a miss itself (a 404 status for an unknown server) reads the outcomes.
 */
export async function prefetch(reads: readonly ServerRead[]): Promise<Prefetched> {
  const cookie = (await headers()).get('cookie') ?? '';
  const client = new QueryClient();
  const outcomes = cookie ? await Promise.all(reads.map((r) => read(client, r, cookie))) : reads.map(() => ({}));
  return { state: dehydrate(client), outcomes };
}

/** prefetch(), for pages that leave every miss to the browser. */
export async function prefetchReads(reads: readonly ServerRead[]): Promise<DehydratedState> {
  return (await prefetch(reads)).state;
}

/** The server render's clock: a server component renders once per request, so reading it is no render impurity. */
export const serverRenderTime = (): number => Date.now();
