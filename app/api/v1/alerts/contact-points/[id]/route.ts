import { contactPointDeleteRoute } from '@/lib/contract/api/routes/alerts';
import { removeContactPoint } from '@/lib/alerts/contact-point-admin';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';

export const dynamic = 'force-dynamic';

export const DELETE = defineRoute(contactPointDeleteRoute, async ({ db, params, audit }) => {
  await removeContactPoint(db, params.id, audit);
  return new Response(null, { status: 204 });
});

export const { GET, HEAD, POST, PUT, PATCH } = refuseOtherMethods(contactPointDeleteRoute);
