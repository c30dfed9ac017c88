import { registeredServerListRoute, serverAddRoute } from '@/lib/contract/api/routes/admin';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';
import { addServer, listServers } from '@/lib/store/servers/server-registry';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(registeredServerListRoute, async ({ db }) => ({ servers: await listServers(db) }));

export const POST = defineRoute(serverAddRoute, ({ db, body, audit }) => addServer(db, body.name, undefined, audit));

export const { PUT, PATCH, DELETE } = refuseOtherMethods(registeredServerListRoute, serverAddRoute);
