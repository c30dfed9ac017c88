import { deadLetterRoute } from '@/lib/contract/api/routes';
import { defineRoute } from '@/lib/http/route';
import { getDeadLetter } from '@/lib/queries/dead-letter-list';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(deadLetterRoute, async ({ db, params }) => ({ deadLetter: await getDeadLetter(db.sql, params.id) }));
