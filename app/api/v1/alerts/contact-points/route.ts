import { contactPointCreateRoute, contactPointListRoute } from '@/lib/contract/api/routes/alerts';
import { contactPointList, createContactPoint } from '@/lib/alerts/contact-point-admin';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(contactPointListRoute, ({ db, operator }) => contactPointList(db, operator.role === 'admin'));

export const POST = defineRoute(contactPointCreateRoute, ({ db, body, audit }) => createContactPoint(db, body, Date.now(), audit));

export const { PUT, PATCH, DELETE } = refuseOtherMethods(contactPointListRoute, contactPointCreateRoute);
