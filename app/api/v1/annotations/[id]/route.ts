import { annotationDeleteRoute } from '@/lib/contract/api/routes/annotations';
import { removeAnnotation } from '@/lib/annotations/annotation-service';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';

export const dynamic = 'force-dynamic';

export const DELETE = defineRoute(annotationDeleteRoute, async ({ db, params, audit }) => {
  await removeAnnotation(db, params.id, audit);
  return new Response(null, { status: 204 });
});

export const { GET, HEAD, POST, PUT, PATCH } = refuseOtherMethods(annotationDeleteRoute);
