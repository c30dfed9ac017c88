import { serverRemoveRoute } from '@/lib/contract/api/routes/admin';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';
import { removeServer } from '@/lib/store/servers/server-registry';

export const dynamic = 'force-dynamic';

export const DELETE = defineRoute(serverRemoveRoute, async ({ db, params, audit }) => {
  await removeServer(db, params.server, audit);
  return new Response(null, { status: 204 });
});

export const { GET, HEAD, POST, PUT, PATCH } = refuseOtherMethods(serverRemoveRoute);
