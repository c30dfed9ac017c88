import { alertDeliveryListRoute } from '@/lib/contract/api/routes';
import { deliveryList } from '@/lib/alerts/alert-views';
import { defineRoute } from '@/lib/http/route';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(alertDeliveryListRoute, ({ db, query }) => deliveryList(db, query));
