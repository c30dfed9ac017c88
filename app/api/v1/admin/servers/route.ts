import { registeredServerListRoute, serverAddRoute } from '@/lib/contract/api/routes/admin';
import { defineRoute } from '@/lib/http/route';
import { refuseOtherMethods } from '@/lib/http/method-not-allowed';
import { addServer, listServers } from '@/lib/store/servers/server-registry';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(registeredServerListRoute, async ({ db }) => ({ servers: await listServers(db) }));

export const POST = defineRoute(serverAddRoute, ({ db, body }) => addServer(db, body.name));

export const { PUT, PATCH, DELETE } = refuseOtherMethods(registeredServerListRoute, serverAddRoute);
