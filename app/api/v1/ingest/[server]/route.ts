import { ingestRoute } from '@/lib/contract/api/routes';
import { defineRoute } from '@/lib/http/route';
import { handleIngestRequest } from '@/lib/ingest/ingest-request';
import { rateLimiterFromEnv } from '@/lib/ingest/rate-limiter';
import { rejectionRecorder } from '@/lib/ingest/rejection-recorder';
import { getDb } from '@/lib/db/client';

export const dynamic = 'force-dynamic';

const limiter = rateLimiterFromEnv();
const rejections = rejectionRecorder(() => getDb().sql);

// auth 'webhook': lib/ingest checks the signature over the raw body, so the handler reads the request itself.
export const POST = defineRoute(ingestRoute, async ({ db, params, request }) => {
  const { status, body } = await handleIngestRequest(db, limiter, params.server, request, (r) => rejections.record(r));
  return Response.json(body, { status });
});
