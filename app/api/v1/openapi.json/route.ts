import { buildOpenApiDocument } from '@/lib/contract/api/openapi';

// API documentation, not data: served without auth.
export const dynamic = 'force-static';

export function GET() {
  return Response.json(buildOpenApiDocument());
}
