import { mcpDeleteRoute, mcpGetRoute, mcpPostRoute } from '@/lib/contract/api/routes/mcp';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';
import { handleMcpRequest } from '@/lib/mcp/mcp-endpoint';

export const dynamic = 'force-dynamic';

// One handler for the three methods: the SDK's transport tells POST, GET and DELETE apart itself.
export const POST = defineRoute(mcpPostRoute, ({ db, operator, request }) => handleMcpRequest(db, operator, request));
export const GET = defineRoute(mcpGetRoute, ({ db, operator, request }) => handleMcpRequest(db, operator, request));
export const DELETE = defineRoute(mcpDeleteRoute, ({ db, operator, request }) => handleMcpRequest(db, operator, request));

export const { PUT, PATCH } = refuseOtherMethods(mcpPostRoute, mcpGetRoute, mcpDeleteRoute);
