import { buildOpenApiDocument } from '@/lib/contract/api/openapi';
import { openApiRoute } from '@/lib/contract/api/routes';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';

// API documentation, not data: served without auth and cached briefly (the contract's
// cache-control), not prerendered (a static route would be cached for a year).
export const dynamic = 'force-dynamic';

let document: ReturnType<typeof buildOpenApiDocument> | null = null;

export const GET = defineRoute(openApiRoute, () => (document ??= buildOpenApiDocument()));

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods(openApiRoute);
