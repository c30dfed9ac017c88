import { ingestRoute } from '@/lib/contract/api/routes';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';
import { ApiError } from '@/lib/http/api-error';
import { handleIngestRequest } from '@/lib/ingest/ingest-request';
import { rateLimiterFromEnv } from '@/lib/ingest/rate-limiter';
import { rejectionRecorder } from '@/lib/ingest/rejection-recorder';
import { recordIngestRequest } from '@/lib/ingest/ingest-metrics';
import { getDb } from '@/lib/db/client';

export const dynamic = 'force-dynamic';

const limiter = rateLimiterFromEnv();
const rejections = rejectionRecorder(() => getDb().sql);

// auth 'webhook': lib/ingest checks the signature over the raw body, so the handler reads the request itself.
export const POST = defineRoute(ingestRoute, async ({ db, params, request, annotate }) => {
  const start = performance.now();
  let reason = 'other';
  try {
    const { status, body } = await handleIngestRequest(db, limiter, params.server, request, (r) => {
      reason = r.reason;
      rejections.record(r);
    });
    annotate({ server: params.server, accepted: body.accepted, duplicates: body.duplicates, rejected: body.rejected.length });
    recordIngestRequest({
      server: params.server,
      status,
      reason: status === 200 ? 'accepted' : 'partial',
      seconds: (performance.now() - start) / 1000,
      result: body,
    });
    return Response.json(body, { status });
  } catch (err) {
    const status = err instanceof ApiError ? err.status : 500;
    if (err instanceof ApiError && err.status === 400) reason = err.code;
    annotate({ reason });
    recordIngestRequest({ server: params.server, status, reason, seconds: (performance.now() - start) / 1000, result: null });
    throw err;
  }
});

export const { GET, HEAD, PUT, PATCH, DELETE } = refuseOtherMethods(ingestRoute);
