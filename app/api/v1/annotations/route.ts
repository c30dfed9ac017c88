import { annotationCreateRoute, annotationListRoute } from '@/lib/contract/api/routes/annotations';
import { createAnnotation, listAnnotations } from '@/lib/annotations/annotation-service';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(annotationListRoute, ({ db, query }) => listAnnotations(db, query));

export const POST = defineRoute(annotationCreateRoute, ({ db, body, audit }) => createAnnotation(db, body, audit));

export const { PUT, PATCH, DELETE } = refuseOtherMethods(annotationListRoute, annotationCreateRoute);
