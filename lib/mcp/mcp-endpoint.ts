// /mcp: MCP over Streamable HTTP (spec 2025-11-25, with sessions and Last-Event-ID resumption), one
// SDK web-standard transport per session, held in this process. The route has authorised the
// request already (any viewer or admin token); a session belongs to the operator who opened it and
// is "not found" (404) to anyone else. Every session's event store is bounded (bounded-event-store.ts)
// and so is the number of sessions; a client that leaves without DELETE is ended by the adapter's
// idle timeout (self-report.ts).
import { randomUUID } from 'node:crypto';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { processSingleton } from '@/lib/config/process-state';
import type { Db } from '@/lib/db/client';
import type { TOperatorRole } from '@/lib/contract/api/operators';
import { ApiError } from '@/lib/http/api-error';
import { readLimitedBody } from '@/lib/http/read-limited-body';
import { BoundedEventStore } from './bounded-event-store';
import { createDoorwatchMcpServer, roleScopes } from './mcp-tools';
import { mcpAdapter } from './self-report';
import { watchedRequest } from './watched-request';

/** Sessions one instance holds at once; a new one beyond it is refused 503 (idle ones end on their own). */
export const MAX_MCP_SESSIONS = 1_000;
const MAX_BODY_BYTES = 1_000_000;
/** Suggested to clients in the SSE priming event: how soon to come back after a dropped stream. */
const RETRY_INTERVAL_MS = 500;
const SERVER_VERSION = '1.0.0';

interface McpSession {
  transport: WebStandardStreamableHTTPServerTransport;
  operatorId: string;
}

const sessions = () => processSingleton('doorwatchMcpSessions', () => new Map<string, McpSession>());

export interface McpCaller {
  id: string;
  /** Recorded by the tools that change something (acknowledge_incident). */
  name: string;
  role: TOperatorRole;
}

/** A JSON-RPC error answer with the HTTP status the transport itself uses for the same case. */
function rpcError(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return Response.json(
    { jsonrpc: '2.0', error: { code, message }, id: null },
    { status, headers: { 'cache-control': 'no-store', ...headers } },
  );
}

async function readInitialize(request: Request): Promise<unknown> {
  const text = await readLimitedBody(request, { bytes: MAX_BODY_BYTES, hint: 'send one JSON-RPC message per request' });
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ApiError(400, 'invalid_json', 'the body is not JSON: send a JSON-RPC initialize request');
  }
}

async function openSession(db: Db, caller: McpCaller, request: Request): Promise<Response> {
  const body = await readInitialize(request);
  if (!isInitializeRequest(body)) {
    return rpcError(400, -32000, 'Bad Request: no Mcp-Session-Id header; start with an initialize request');
  }
  if (sessions().size >= MAX_MCP_SESSIONS) {
    return rpcError(503, -32000, `Doorwatch holds ${MAX_MCP_SESSIONS} MCP sessions already; end one (DELETE) or retry later`, {
      'retry-after': '30',
    });
  }
  const adapter = await mcpAdapter(db);
  const sessionId = randomUUID();
  const watched = adapter.session(sessionId, new BoundedEventStore());
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => sessionId,
    eventStore: watched.eventStore,
    retryInterval: RETRY_INTERVAL_MS,
    onsessioninitialized: () => {
      sessions().set(sessionId, { transport, operatorId: caller.id });
      watched.onsessioninitialized();
    },
    onsessionclosed: watched.onsessionclosed,
  });
  transport.onclose = () => sessions().delete(sessionId);
  watched.attach(transport);
  await createDoorwatchMcpServer(SERVER_VERSION).connect(transport);
  const response = await watchedRequest(watched, request, () =>
    transport.handleRequest(request, { parsedBody: body, authInfo: authInfo(caller) }),
  );
  // Refused before it began (406, 415, a bad protocol version): let the transport and its watch go.
  if (!sessions().has(sessionId)) await transport.close();
  return response;
}

const authInfo = (caller: McpCaller) => ({
  token: '',
  clientId: caller.id,
  scopes: roleScopes(caller.role),
  extra: { operator: caller.name },
});

/** One HTTP request to /mcp (POST, GET or DELETE) from an authorised operator. */
export async function handleMcpRequest(db: Db, caller: McpCaller, request: Request): Promise<Response> {
  const sessionId = request.headers.get('mcp-session-id');
  if (sessionId === null) {
    if (request.method === 'POST') return openSession(db, caller, request);
    // Not a request of any session, so the API's own error shape (a code to switch on), like every
    // other 4xx of Doorwatch; the query fuzz found the JSON-RPC body here had no such code.
    throw new ApiError(
      400,
      'mcp_session_required',
      `${request.method} /mcp needs the Mcp-Session-Id header of a session: open one with a POST initialize request`,
    );
  }
  const adapter = await mcpAdapter(db);
  const session = sessions().get(sessionId);
  if (!session || session.operatorId !== caller.id) {
    // An ended session (or another operator's): 404 tells the client to start a new one. A
    // resume of one this instance ended is still reported, as the adapter does for any server.
    const ended = session ? undefined : adapter.get(sessionId);
    return watchedRequest(ended, request, async () => rpcError(404, -32001, 'Session not found'));
  }
  return watchedRequest(adapter.get(sessionId), request, () => session.transport.handleRequest(request, { authInfo: authInfo(caller) }));
}
