import { deadLetterListRoute } from '@/lib/contract/api/routes';
import { defineRoute } from '@/lib/http/route';
import { listDeadLetters, parseDeadLetterQuery } from '@/lib/queries/dead-letter-list';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(deadLetterListRoute, ({ db, query }) => listDeadLetters(db.sql, parseDeadLetterQuery(query, Date.now())));
