import { alertHistoryRoute } from '@/lib/contract/api/routes';
import { alertHistory } from '@/lib/alerts/alert-views';
import { defineRoute } from '@/lib/http/route';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(alertHistoryRoute, ({ db, query }) => alertHistory(db, query));
