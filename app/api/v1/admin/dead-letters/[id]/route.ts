import { deadLetterRoute } from '@/lib/contract/api/routes';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';
import { getDeadLetter } from '@/lib/queries/dead-letter-list';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(deadLetterRoute, async ({ db, params }) => ({ deadLetter: await getDeadLetter(db.sql, params.id) }));

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods(deadLetterRoute);
