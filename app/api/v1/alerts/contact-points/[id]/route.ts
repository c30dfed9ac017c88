import { contactPointDeleteRoute } from '@/lib/contract/api/routes';
import { removeContactPoint } from '@/lib/alerts/alert-views';
import { defineRoute } from '@/lib/http/route';

export const dynamic = 'force-dynamic';

export const DELETE = defineRoute(contactPointDeleteRoute, async ({ db, params }) => {
  await removeContactPoint(db, params.id);
  return new Response(null, { status: 204 });
});
