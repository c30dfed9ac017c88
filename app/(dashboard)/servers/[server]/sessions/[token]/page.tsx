import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { HydrationBoundary } from '@tanstack/react-query';
import { GET as sessionDetailRoute } from '@/app/api/v1/servers/[server]/sessions/[token]/route';
import { SessionView } from '@/components/sessions/session-view';
import { safeDecode } from '@/lib/ui/format';
import { sessionDetailQuery } from '@/lib/ui/query-defs';
import { prefetch } from '@/lib/ui/server-prefetch';

interface Params {
  server: string;
  token: string;
}

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  const { token } = await params;
  return { title: `Session ${safeDecode(token).slice(0, 24)}` };
}

export default async function SessionPage({ params }: { params: Promise<Params> }) {
  const raw = await params;
  const server = safeDecode(raw.server);
  const token = safeDecode(raw.token);
  const { state, outcomes } = await prefetch([
    { def: sessionDetailQuery(server, token), route: sessionDetailRoute, params: { server, token } },
  ]);
  // An unknown server is a 404 page (../../not-found.tsx names it). An unknown token on a known
  // server stays a live page: the session may report in a moment, and the page shows it when it does.
  if (outcomes[0].errorCode === 'server_not_found') notFound();
  return (
    <HydrationBoundary state={state}>
      <SessionView server={server} token={token} />
    </HydrationBoundary>
  );
}
