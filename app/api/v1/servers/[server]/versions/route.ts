import { serverVersionsRoute } from '@/lib/contract/api/routes/annotations';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';
import { serverVersions } from '@/lib/queries/server-versions';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(serverVersionsRoute, ({ db, params }) => serverVersions(db, params.server));

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods(serverVersionsRoute);
