import { getDb } from '@/lib/db/client';
import { handleRoute } from '@/lib/http/handle-route';
import { handleIngestRequest } from '@/lib/ingest/ingest-request';
import { rateLimiterFromEnv } from '@/lib/ingest/rate-limiter';

export const dynamic = 'force-dynamic';

const limiter = rateLimiterFromEnv();

export const POST = handleRoute(async (request: Request, { params }: { params: Promise<{ server: string }> }) => {
  const { server } = await params;
  const { status, body } = await handleIngestRequest(getDb(), limiter, server, request);
  return Response.json(body, { status, headers: { 'cache-control': 'no-store' } });
});
