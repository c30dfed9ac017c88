import { changesRoute } from '@/lib/contract/api/routes';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';
import { changeStream } from '@/lib/live/change-stream';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(changesRoute, ({ db, request }) => changeStream(db, request.signal));

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods(changesRoute);
