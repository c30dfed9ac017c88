import { changesRoute } from '@/lib/contract/api/routes/query';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';
import { changeStream } from '@/lib/live/change-stream';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(changesRoute, ({ db, request, operator }) => changeStream(db, request.signal, operator.id));

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods(changesRoute);
