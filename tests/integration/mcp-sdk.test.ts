// @doorwatch/reporter/mcp-sdk with the REAL official MCP SDK (server and client) over loopback,
// reporting to the real built Doorwatch. One session: a tool call streams progress, its connection
// is cut mid-call, the SDK client resumes with its Last-Event-ID and gets the rest; a second
// resumer of that connected stream gets 409; after DELETE a resume gets 404. A second session's
// client vanishes without DELETE and is reported abandoned (and its transport closed). Doorwatch's
// timelines, flags, stats and the server verdict must show exactly that.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { InMemoryEventStore } from '@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { createReporter, type Reporter } from '@doorwatch/reporter';
import { createMcpSdkAdapter, type McpSdkAdapter } from '@doorwatch/reporter/mcp-sdk';
import { startAppServer, type AppServer } from '@/tests/support/app-server';
import { generateSecret } from '@/lib/contract/server-secret';
import { ZSessionListResponse } from '@/lib/contract/api/sessions';
import { ZServerListResponse } from '@/lib/contract/api/servers';
import { ZStatsResponse } from '@/lib/contract/api/stats';

const SERVER = { name: 'sdk-server', secret: generateSecret() };
const ADMIN = 'dw_test_admin_token_0123456789abcdef';
const IDLE_MS = 1_500;
const STEPS = 8;

let app: AppServer;
let reporter: Reporter;
let adapter: McpSdkAdapter;
let mcp: Server;
let mcpUrl: string;
const transports = new Map<string, StreamableHTTPServerTransport>();
/** The socket carrying the tools/call POST, cut by the tool itself mid-call. */
let toolCallSocket: Socket | null = null;

function mcpServer(): McpServer {
  const server = new McpServer({ name: 'doorwatch-e2e', version: '1.0.0' });
  server.registerTool('count', { inputSchema: { steps: z.number().int() } }, async ({ steps }, extra) => {
    const progressToken = extra._meta?.progressToken;
    for (let i = 0; i < steps; i++) {
      if (progressToken !== undefined) {
        await extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress: i + 1, total: steps } });
      }
      await new Promise((r) => setTimeout(r, 120));
      // The client's connection dies after the third notification (reset, as a broken network would).
      if (i === 2) toolCallSocket?.destroy();
    }
    return { content: [{ type: 'text', text: `counted ${steps}` }] };
  });
  return server;
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
}

/** A server author's usual Streamable HTTP wiring, plus the adapter's ~10 lines. */
async function startMcp(): Promise<void> {
  mcp = createServer((req, res) => void handleMcp(req, res));
  await new Promise<void>((r) => mcp.listen(0, '127.0.0.1', r));
  mcpUrl = `http://127.0.0.1:${(mcp.address() as { port: number }).port}/mcp`;
}

async function handleMcp(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = req.method === 'POST' ? await readBody(req) : undefined;
  if ((body as { method?: string } | undefined)?.method === 'tools/call') toolCallSocket = req.socket;
  await adapter.handle(req, res, async () => {
    const sid = req.headers['mcp-session-id'];
    let transport = typeof sid === 'string' ? transports.get(sid) : undefined;
    if (!transport && sid === undefined && isInitializeRequest(body)) {
      const sessionId = randomUUID();
      const watched = adapter.session(sessionId, new InMemoryEventStore());
      const t = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => sessionId,
        eventStore: watched.eventStore,
        retryInterval: 100,
        onsessioninitialized: (id) => {
          transports.set(id, t);
          watched.onsessioninitialized();
        },
        onsessionclosed: watched.onsessionclosed,
      });
      t.onclose = () => transports.delete(sessionId);
      watched.attach(t);
      await mcpServer().connect(t);
      transport = t;
    }
    if (!transport) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
      return;
    }
    await transport.handleRequest(req, res, body);
  });
}

async function connectClient(): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), {
    reconnectionOptions: { initialReconnectionDelay: 100, maxReconnectionDelay: 500, reconnectionDelayGrowFactor: 1.5, maxRetries: 5 },
  });
  const client = new Client({ name: 'e2e-client', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

const rawResume = (sessionId: string, lastEventId: string) =>
  fetch(mcpUrl, { headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId, 'last-event-id': lastEventId } });

async function api<T>(path: string, schema: { parse(v: unknown): T }): Promise<T> {
  const res = await fetch(`${app.url}${path}`, { headers: { authorization: `Bearer ${ADMIN}` } });
  assert.equal(res.status, 200, `${path}: ${res.status}`);
  return schema.parse(await res.json());
}

async function timeline(token: string): Promise<{ type: string; data: Record<string, unknown> }[]> {
  const rows = await app.query<{ type: string; data: string }>(
    'SELECT "type", "data" FROM "Event" WHERE "server" = ? AND "token" = ? ORDER BY "at", "seq"',
    [SERVER.name, token],
  );
  return rows.map((r) => ({ type: r.type, data: JSON.parse(r.data) as Record<string, unknown> }));
}

before(async () => {
  app = await startAppServer({ env: { DOORWATCH_SERVERS: `${SERVER.name}=${SERVER.secret}` } });
  const errors: string[] = [];
  reporter = createReporter({
    url: app.url,
    server: SERVER.name,
    secret: SERVER.secret,
    flushIntervalMs: 20,
    instance: 'sdk-e2e',
    onError: (e) => errors.push(`${e.code}: ${e.message}`),
  });
  adapter = createMcpSdkAdapter({ reporter, idleTimeoutMs: IDLE_MS });
  await startMcp();
});

after(async () => {
  adapter?.dispose();
  for (const t of transports.values()) await t.close();
  mcp?.closeAllConnections();
  await new Promise((r) => mcp?.close(r));
  await reporter?.close();
  await app?.stop();
});

test('the official SDK: resumed tool call, 409 second resumer, 404 after DELETE, abandoned session', { timeout: 60_000 }, async () => {
  // ---- session 1: a tool call whose connection drops mid-call, resumed by the SDK client ----
  const one = await connectClient();
  const sid = one.transport.sessionId!;
  assert.ok(sid);
  const progress: number[] = [];
  let lastToken: string | null = null;
  let conflict = null as Promise<Response> | null;
  const result = await one.client.callTool({ name: 'count', arguments: { steps: STEPS } }, undefined, {
    onprogress: (p) => {
      progress.push(p.progress);
      // On the resumed stream: a second resumer of that still-connected stream.
      if (p.progress === 5 && lastToken) conflict = rawResume(sid, lastToken);
    },
    onresumptiontoken: (t) => (lastToken = t),
  });
  assert.deepEqual(result.content, [{ type: 'text', text: `counted ${STEPS}` }]);
  assert.deepEqual(
    [...new Set(progress)].sort((a, b) => a - b),
    Array.from({ length: STEPS }, (_, i) => i + 1),
    'every progress notification arrived',
  );
  assert.equal(progress.length, STEPS, 'none twice');
  assert.ok(conflict, 'the second resumer ran while the resumed stream was connected');
  const second = await conflict!;
  assert.equal(second.status, 409);
  await second.body?.cancel();

  await one.transport.terminateSession(); // DELETE
  const afterDelete = await rawResume(sid, lastToken!);
  assert.equal(afterDelete.status, 404);
  await afterDelete.body?.cancel();
  await one.client.close();

  // ---- session 2: a client that vanishes without DELETE ----
  const two = await connectClient();
  const sid2 = two.transport.sessionId!;
  await two.client.close(); // aborts its connections; sends no DELETE
  const deadline = Date.now() + 10 * IDLE_MS;
  while (transports.has(sid2) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  assert.equal(transports.has(sid2), false, 'the idle timeout closed the abandoned transport');
  await reporter.flush();

  // ---- what Doorwatch stored ----
  const t1 = await timeline(sid);
  assert.deepEqual(
    t1.map((e) => e.type),
    [
      'session.opened',
      'stream.dropped', // the tool call's connection cut mid-call
      'resume.requested',
      'resume.accepted', // the SDK client's own resume
      'resume.requested',
      'resume.rejected', // 409: the second resumer
      'session.closed', // DELETE
      'resume.requested',
      'resume.rejected', // 404: resumed after the end
    ],
  );
  const [resumed, accepted, , conflicted, closed, , ended] = t1.slice(2);
  assert.equal(typeof resumed.data.lastEventId, 'string', 'the SSE id as written');
  assert.equal(typeof resumed.data.ordinal, 'number');
  assert.ok((accepted.data.replayed as number) >= 1, 'the resume replayed what the client missed');
  assert.equal(accepted.data.replayed, accepted.data.available, 'all the store held after the cursor');
  assert.equal(conflicted.data.status, 409);
  assert.match(String(conflicted.data.reason), /active connection/);
  assert.deepEqual(closed.data, { reason: 'delete' });
  assert.equal(ended.data.status, 404);

  const t2 = await timeline(sid2);
  assert.equal(t2[0].type, 'session.opened');
  assert.equal(t2.at(-1)!.type, 'session.abandoned');
  assert.deepEqual(t2.at(-1)!.data, { idleMs: IDLE_MS });
  assert.ok(
    t2.slice(1, -1).every((e) => e.type === 'stream.dropped'),
    JSON.stringify(t2),
  );

  const { sessions } = await api(`/api/v1/sessions?server=${SERVER.name}`, ZSessionListResponse);
  const s1 = sessions.find((s) => s.token === sid)!;
  const s2 = sessions.find((s) => s.token === sid2)!;
  assert.equal(s1.state, 'terminated');
  assert.deepEqual(s1.flags, [], 'never at the upgrade boundary');
  assert.deepEqual(s1.resumption, {
    flags: ['resume_after_end', 'resume_conflict'],
    checkedResumes: 1,
    lossyResumes: 0,
    idleResumes: 0,
    rejectedResumes: 2,
    abandonedAt: null,
  });
  assert.equal(s2.state, 'terminated');
  assert.deepEqual(s2.resumption.flags, ['abandoned']);
  assert.ok(s2.resumption.abandonedAt);
  const flagged = await api(`/api/v1/sessions?server=${SERVER.name}&flag=abandoned`, ZSessionListResponse);
  assert.deepEqual(
    flagged.sessions.map((s) => s.token),
    [sid2],
  );

  const expected = {
    checkedResumes: 1,
    lossyResumes: 0,
    idleResumes: 0,
    rejectedResumes: 2,
    conflictSessions: 1,
    endedSessionResumes: 1,
    unknownCursorSessions: 0,
    abandonedSessions: 1,
  };
  const { servers } = await api('/api/v1/servers', ZServerListResponse);
  const view = servers.find((s) => s.name === SERVER.name)!;
  assert.equal(view.verdict, 'resumes_correctly');
  assert.deepEqual(view.resumption, expected);
  assert.deepEqual(view.reporterLoss, { instances: 1, dropped: 0, failed: 0, lastReportAt: view.reporterLoss!.lastReportAt });

  const from = new Date(Date.now() - 10 * 60_000).toISOString();
  const to = new Date(Date.now() + 2 * 60_000).toISOString();
  const stats = await api(`/api/v1/stats?server=${SERVER.name}&from=${from}&to=${to}`, ZStatsResponse);
  assert.deepEqual(stats.resumption, expected);
  assert.equal(stats.sessions, 2);
  assert.equal(stats.boundary, 0);
});
