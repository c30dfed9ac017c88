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

async function read(client: QueryClient, { def, route, params }: ServerRead, cookie: string): Promise<void> {
  try {
    const request = new Request(new URL(def.url, ORIGIN), { headers: { cookie, accept: 'application/json' } });
    const res = await route(request, { params: Promise.resolve(params ?? {}) });
    if (!res.ok) return;
    const parsed = def.schema.safeParse(await res.json());
    if (parsed.success) client.setQueryData(def.queryKey, parsed.data);
  } catch {
    /* left to the browser */
  }
}

/** Runs the reads for the operator of this page request; the dehydrated cache holds those that succeeded. */
export async function prefetchReads(reads: readonly ServerRead[]): Promise<DehydratedState> {
  const cookie = (await headers()).get('cookie') ?? '';
  const client = new QueryClient();
  if (cookie) await Promise.all(reads.map((r) => read(client, r, cookie)));
  return dehydrate(client);
}

/** The server render's clock: a server component renders once per request, so reading it is no render impurity. */
export const serverRenderTime = (): number => Date.now();
