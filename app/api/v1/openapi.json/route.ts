import { buildOpenApiDocument } from '@/lib/contract/api/openapi';
import { openApiRoute } from '@/lib/contract/api/routes';
import { defineRoute } from '@/lib/http/route';

// API documentation, not data: served without auth, cached briefly (it changes with each release).
export const dynamic = 'force-static';

export const GET = defineRoute(openApiRoute, () => buildOpenApiDocument());
