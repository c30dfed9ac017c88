import { serverListRoute } from '@/lib/contract/api/routes';
import { defineRoute } from '@/lib/http/route';
import { listServerVerdicts } from '@/lib/queries/server-verdicts';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(serverListRoute, ({ db }) => listServerVerdicts(db));
