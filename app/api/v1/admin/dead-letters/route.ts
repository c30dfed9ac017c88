import { deadLetterListRoute } from '@/lib/contract/api/routes';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';
import { listDeadLetters, parseDeadLetterQuery } from '@/lib/queries/dead-letter-list';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(deadLetterListRoute, ({ db, query }) => listDeadLetters(db.sql, parseDeadLetterQuery(query, Date.now())));

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods(deadLetterListRoute);
