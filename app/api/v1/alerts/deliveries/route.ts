import { alertDeliveryListRoute } from '@/lib/contract/api/routes';
import { deliveryList } from '@/lib/alerts/alert-views';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(alertDeliveryListRoute, ({ db, query }) => deliveryList(db, query));

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods(alertDeliveryListRoute);
