import { probeRunRoute } from '@/lib/contract/api/routes/admin';
import { defineRoute } from '@/lib/http/route';
import { refuseOtherMethods } from '@/lib/http/method-not-allowed';
import { runProbeNow } from '@/lib/queries/probe-history';

export const dynamic = 'force-dynamic';

export const POST = defineRoute(probeRunRoute, ({ db, params }) => runProbeNow(db, params.server));

export const { GET, HEAD, PUT, PATCH, DELETE } = refuseOtherMethods(probeRunRoute);
