import { secretRotateRoute } from '@/lib/contract/api/routes';
import { defineRoute } from '@/lib/http/route';
import { rotateSecret } from '@/lib/store/servers/server-registry';

export const dynamic = 'force-dynamic';

export const POST = defineRoute(secretRotateRoute, ({ db, params, body }) => rotateSecret(db, params.server, body.graceSeconds));
