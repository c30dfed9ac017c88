import { versionCompareRoute } from '@/lib/contract/api/routes/annotations';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';
import { compareVersions } from '@/lib/queries/server-versions';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(versionCompareRoute, ({ db, params, query }) => compareVersions(db, params.server, query.a, query.b));

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods(versionCompareRoute);
