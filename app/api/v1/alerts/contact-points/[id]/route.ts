import { contactPointDeleteRoute } from '@/lib/contract/api/routes';
import { removeContactPoint } from '@/lib/alerts/alert-views';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';

export const dynamic = 'force-dynamic';

export const DELETE = defineRoute(contactPointDeleteRoute, async ({ db, params }) => {
  await removeContactPoint(db, params.id);
  return new Response(null, { status: 204 });
});

export const { GET, HEAD, POST, PUT, PATCH } = refuseOtherMethods(contactPointDeleteRoute);
