// /mcp: Doorwatch's MCP server (Streamable HTTP, MCP spec 2025-11-25, with sessions and Last-Event-ID
// resumption), for assistants and agents; docs/mcp.md lists its tools. The body and the answers
// are JSON-RPC messages of the MCP specification, described here only by their envelope.
import { z } from 'zod';
import { routeContract, type HeaderSpec } from '../route-contract';

const ZJsonRpcMessage = z
  .looseObject({ jsonrpc: z.literal('2.0'), id: z.union([z.string(), z.number()]).optional(), method: z.string().optional() })
  .meta({ description: 'a JSON-RPC 2.0 message of the MCP specification (initialize, tools/list, tools/call, …)' });

const SESSION_HEADER: HeaderSpec = {
  name: 'mcp-session-id',
  description: 'the session id the initialize answer carried; required on every request but initialize',
  required: false,
};
const PROTOCOL_HEADER: HeaderSpec = { name: 'mcp-protocol-version', description: 'the negotiated MCP protocol version', required: false };
const ROLE_NOTE =
  'Any viewer or admin operator token; tools that change something (run_probe) answer a viewer with a tool error (code forbidden) naming the admin role.';

export const mcpPostRoute = routeContract({
  method: 'POST',
  path: '/mcp',
  operationId: 'postMcpMessage',
  tags: ['mcp'],
  auth: 'viewer',
  summary: 'MCP Streamable HTTP: send a JSON-RPC message (initialize opens a session)',
  description: `${ROLE_NOTE} Answers with JSON or an event stream (Accept must list both). 404: the session ended, start a new one.`,
  body: ZJsonRpcMessage,
  rawBody: true,
  headers: [SESSION_HEADER, PROTOCOL_HEADER],
  responses: {
    200: {
      description: 'the JSON-RPC answer, or an event stream ending with it',
      content: { 'application/json': ZJsonRpcMessage, 'text/event-stream': z.string() },
    },
    202: { description: 'a notification or response accepted' },
  },
  errors: [404, 406, 413, 415, 503],
});

export const mcpGetRoute = routeContract({
  method: 'GET',
  path: '/mcp',
  operationId: 'streamMcpSession',
  tags: ['mcp'],
  auth: 'viewer',
  summary: 'MCP Streamable HTTP: the session’s server-to-client event stream, or a resume with Last-Event-ID',
  description: `${ROLE_NOTE} With Last-Event-ID: replays what followed that event on its own stream (400 for a cursor no longer held, 409 while that stream is connected).`,
  headers: [
    { ...SESSION_HEADER, required: true },
    { name: 'last-event-id', description: 'resume the stream after this event id', required: false },
    PROTOCOL_HEADER,
  ],
  responses: { 200: { description: 'an event stream of JSON-RPC messages', content: { 'text/event-stream': z.string() } } },
  errors: [404, 405, 406, 409],
});

export const mcpDeleteRoute = routeContract({
  method: 'DELETE',
  path: '/mcp',
  operationId: 'endMcpSession',
  tags: ['mcp'],
  auth: 'viewer',
  summary: 'MCP Streamable HTTP: end the session',
  headers: [{ ...SESSION_HEADER, required: true }, PROTOCOL_HEADER],
  responses: { 200: { description: 'the session ended' } },
  errors: [404],
});
