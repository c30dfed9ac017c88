import { changesRoute } from '@/lib/contract/api/routes';
import { defineRoute } from '@/lib/http/route';
import { changeStream } from '@/lib/live/change-stream';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(changesRoute, ({ db, request }) => changeStream(db, request.signal));
