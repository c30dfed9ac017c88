import { requireOperator } from '@/lib/auth/require-operator';
import { getDb } from '@/lib/db/client';
import { handleRoute } from '@/lib/http/handle-route';
import { deadlockThresholdMs } from '@/lib/config/settings';
import { parseExportFormat } from '@/lib/queries/session-export';
import { sessionExportResponse } from '@/lib/queries/session-export-response';
import { parseSessionQuery } from '@/lib/queries/session-filter';

export const dynamic = 'force-dynamic';

export const GET = handleRoute(async (request: Request) => {
  await requireOperator(request, 'viewer');
  const params = new URL(request.url).searchParams;
  const query = parseSessionQuery(params, Date.now(), deadlockThresholdMs());
  return sessionExportResponse(getDb(), query, parseExportFormat(params.get('format')));
});
