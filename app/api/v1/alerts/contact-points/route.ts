import { contactPointCreateRoute, contactPointListRoute } from '@/lib/contract/api/routes';
import { contactPointList, createContactPoint } from '@/lib/alerts/alert-views';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(contactPointListRoute, ({ db, operator }) => contactPointList(db, operator.role === 'admin'));

export const POST = defineRoute(contactPointCreateRoute, ({ db, body }) => createContactPoint(db, body, Date.now()));

export const { PUT, PATCH, DELETE } = refuseOtherMethods(contactPointListRoute, contactPointCreateRoute);
