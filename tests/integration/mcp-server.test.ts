// Doorwatch's own MCP server (/mcp) driven by the official SDK client against the real built app:
// a scripted fleet (a refusing server, a naive one with a session stuck now) posts its events, then
// the client lists the tools and calls each one; bad arguments get tool errors with a code; a viewer
// is refused run_probe naming the admin role; a tool call whose stream is cut mid-answer (a TCP
// proxy resets it) is resumed with Last-Event-ID and completes; and with DOORWATCH_SELF_REPORT
// Doorwatch shows that resume in its own session's timeline and its own server's verdict.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startAppServer, type AppServer, TEST_ADMIN_TOKEN as ADMIN } from '../support/app-server';
import { postEvents } from '../support/post-events';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';
import { generateSecret } from '@/lib/contract/server-secret';
import { MCP_TOOL_NAMES, ZMcpToolError } from '@/lib/contract/mcp-tools';
import { Ledger } from '@/scripts/sim/ledger';
import { startSimServer, type SimServer } from '@/scripts/sim/server';

const REFUSING = { name: 'fleet-refusing', secret: generateSecret() };
const NAIVE = { name: 'fleet-naive', secret: generateSecret() };
const SELF = 'doorwatch-self';

let app: AppServer;
let proxy: TcpProxy;
let sim: SimServer;
let viewerToken = '';
const clients: Client[] = [];

const iso = (ms: number) => new Date(ms).toISOString();

/** One session's transitions, `at` offsets from `t0` in ms. */
function session(token: string, t0: number, steps: [string, number, Record<string, unknown>][]) {
  return steps.map(([type, dt, data], i) => ({ id: `${token}.e${i}`, token, type, at: iso(t0 + dt), seq: i, data }));
}

async function connect(token: string, url = `${app.url}/mcp`): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
    reconnectionOptions: { initialReconnectionDelay: 100, maxReconnectionDelay: 500, reconnectionDelayGrowFactor: 1.5, maxRetries: 5 },
  });
  const client = new Client({ name: 'doorwatch-mcp-test', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
}

const call = (client: Client, name: string, args: Record<string, unknown> = {}) =>
  client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

function structured<T = Record<string, any>>(r: CallToolResult): T {
  assert.equal(r.isError, undefined, JSON.stringify(r.content));
  assert.ok(r.structuredContent, 'structured content');
  return r.structuredContent as T;
}

/** The code of a tool error: Doorwatch's {"error": {"code"}}; or the SDK's own JSON-RPC code for arguments its schema refused. */
function errorCode(r: CallToolResult): string {
  assert.equal(r.isError, true, JSON.stringify(r));
  const text = (r.content[0] as { text: string }).text;
  assert.doesNotMatch(text, /\n\s+at /, 'no stack trace');
  if (text.startsWith('{')) return ZMcpToolError.parse(JSON.parse(text)).error.code;
  const m = /^MCP error (-?\d+): Input validation error/.exec(text);
  assert.ok(m, text);
  return m[1];
}

async function admin(path: string, init: RequestInit = {}) {
  const res = await fetch(`${app.url}${path}`, {
    ...init,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN}`, ...(init.headers ?? {}) },
  });
  return { status: res.status, body: (await res.json()) as any };
}

before(async () => {
  app = await startAppServer({
    env: {
      DOORWATCH_SERVERS: `${REFUSING.name}=${REFUSING.secret},${NAIVE.name}=${NAIVE.secret}`,
      DOORWATCH_DEADLOCK_THRESHOLD_MS: '1000',
      DOORWATCH_SELF_REPORT: SELF,
      // The incident pass runs with alert evaluation: a short interval opens the naive server's incident quickly.
      DOORWATCH_ALERT_INTERVAL_MS: '300',
    },
  });
  const now = Date.now();
  const refused = session('r-1', now - 60_000, [
    ['session.opened', 0, {}],
    ['upgrade.accepted', 1_000, { eventId: 5 }],
    ['stream.dropped', 1_050, {}],
    ['resume.requested', 2_000, { lastEventId: 5 }],
    ['resume.refused', 2_040, { reason: 'session-superseded' }],
  ]);
  const naive = session('n-1', now - 30_000, [
    ['session.opened', 0, {}],
    ['upgrade.accepted', 1_000, { eventId: 5 }],
    ['stream.dropped', 1_050, {}],
    ['resume.requested', 2_000, { lastEventId: 5 }],
    ['resume.accepted', 2_040, { replayed: 0 }],
  ]);
  assert.equal((await postEvents(app.url, REFUSING.name, REFUSING.secret, refused)).status, 200);
  assert.equal((await postEvents(app.url, NAIVE.name, NAIVE.secret, naive)).status, 200);

  const viewer = await admin('/api/v1/operators', { method: 'POST', body: JSON.stringify({ name: 'mcp-viewer', role: 'viewer' }) });
  assert.equal(viewer.status, 201);
  viewerToken = viewer.body.token;

  sim = await startSimServer({
    name: 'door-target',
    mode: 'refusing',
    reporter: null,
    ledger: new Ledger(),
    upgradeAfterMs: () => 30,
    messageIntervalMs: 10,
  });
  assert.equal((await admin('/api/v1/admin/servers', { method: 'POST', body: JSON.stringify({ name: 'door-target' }) })).status, 201);
  const target = await admin('/api/v1/admin/servers/door-target/probe', {
    method: 'PUT',
    body: JSON.stringify({ url: `${sim.url}/mcp`, enabled: false, intervalSeconds: 3600 }),
  });
  assert.equal(target.status, 200, JSON.stringify(target.body));
  proxy = await startTcpProxy('127.0.0.1', Number(new URL(app.url).port));
});

after(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  await proxy?.close();
  await sim?.close();
  await app?.stop();
});

test('no token or a bad token: 401 at the HTTP level', async () => {
  const init = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
  };
  const without: Record<string, string> = {};
  for (const headers of [without, { authorization: 'Bearer dw_not_a_real_token_000000' }]) {
    const res = await fetch(`${app.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify(init),
    });
    assert.equal(res.status, 401);
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'unauthorized');
  }
});

test('the tools, each with input and output schemas, and their answers over the scripted fleet', { timeout: 60_000 }, async () => {
  const { client } = await connect(ADMIN);
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name).sort(), [...MCP_TOOL_NAMES].sort());
  for (const t of tools) {
    assert.equal(t.inputSchema.type, 'object', t.name);
    assert.equal(t.outputSchema?.type, 'object', t.name);
  }

  const fleet = structured(await call(client, 'fleet_status'));
  assert.equal(fleet.alarm.level, 'stuck');
  assert.match(fleet.alarm.headline, /1 session stuck on fleet-naive/);
  assert.equal(fleet.servers[0].name, NAIVE.name, 'worst first');
  assert.equal(fleet.servers[0].stuck, 1);
  assert.equal(fleet.servers.find((s: { name: string }) => s.name === REFUSING.name).verdict, 'refuses');

  const verdict = structured(await call(client, 'server_verdict', { server: NAIVE.name }));
  assert.equal(verdict.verdict, 'naive');
  assert.equal(verdict.counts.naiveResumes, 1);

  const stuck = structured(await call(client, 'stuck_sessions'));
  assert.equal(stuck.total, 1);
  assert.equal(stuck.ongoing, 1);
  assert.equal(stuck.sessions[0].token, 'n-1');
  assert.equal(stuck.sessions[0].deadlock.ongoing, true);

  const timeline = structured(await call(client, 'session_timeline', { server: REFUSING.name, token: 'r-1' }));
  assert.deepEqual(
    timeline.events.map((e: { type: string }) => e.type),
    ['session.opened', 'upgrade.accepted', 'stream.dropped', 'resume.requested', 'resume.refused'],
  );
  const short = structured(await call(client, 'session_timeline', { server: REFUSING.name, token: 'r-1', limit: 2 }));
  assert.deepEqual(
    short.events.map((e: { type: string }) => e.type),
    ['session.opened', 'resume.refused'],
  );
  assert.equal(short.omitted, 3);

  const refusedStory = structured(await call(client, 'explain_session', { server: REFUSING.name, token: 'r-1' }));
  assert.equal(refusedStory.outcome, 'refused_correctly');
  assert.equal(refusedStory.conforms, true);
  const naiveStory = structured(await call(client, 'explain_session', { server: NAIVE.name, token: 'n-1' }));
  assert.equal(naiveStory.outcome, 'deadlocked');
  assert.equal(naiveStory.conforms, false);
  assert.match(
    ((await call(client, 'explain_session', { server: NAIVE.name, token: 'n-1' })).content[0] as { text: string }).text,
    /deadlocked/,
  );

  const stats = structured(await call(client, 'boundary_stats', { from: 'now-1h' }));
  assert.equal(stats.boundary, 2);
  assert.equal(stats.refused, 1);
  assert.equal(stats.naiveResumes, 1);
  assert.equal(structured(await call(client, 'boundary_stats', { from: 'now-1h', server: [REFUSING.name] })).naiveResumes, 0);
});

test('bad arguments are tool errors with a code, never a stack trace', async () => {
  const { client } = await connect(viewerToken);
  assert.equal(errorCode(await call(client, 'server_verdict', { server: 'nobody' })), 'server_not_found');
  assert.equal(errorCode(await call(client, 'stuck_sessions', { server: ['nobody'] })), 'server_not_found');
  assert.equal(errorCode(await call(client, 'session_timeline', { server: REFUSING.name, token: 'no-such' })), 'session_not_found');
  assert.equal(errorCode(await call(client, 'boundary_stats', { from: 'last tuesday' })), 'invalid_time_range');
  assert.equal(errorCode(await call(client, 'fleet_status', { from: 'now-1h', to: 'now-2h' })), 'invalid_time_range');
  // The API's limit schema refuses it before the tool runs (the SDK's InvalidParams, -32602).
  assert.equal(errorCode(await call(client, 'stuck_sessions', { limit: 5_000 })), '-32602');
  assert.equal(errorCode(await call(client, 'session_timeline', { server: REFUSING.name })), '-32602');
});

test('a viewer reads but is refused run_probe, naming the admin role', async () => {
  const { client } = await connect(viewerToken);
  assert.equal(structured(await call(client, 'fleet_status')).alarm.level, 'stuck');
  const refused = await call(client, 'run_probe', { server: 'door-target' });
  assert.equal(errorCode(refused), 'forbidden');
  assert.match((refused.content[0] as { text: string }).text, /role admin; this token's role is viewer/);
});

test('incidents for a viewer; acknowledge_incident for an admin only, recorded with its name', async () => {
  const viewer = (await connect(viewerToken)).client;
  type Listed = { incidents: { id: string; kind: string; status: string; acknowledgedBy: string | null }[]; totals: { open: number } };
  const naiveIncident = async () => {
    const end = Date.now() + 30_000;
    for (;;) {
      const listed = structured(await call(viewer, 'incidents', { server: NAIVE.name })) as Listed;
      const found = listed.incidents.find((i) => i.kind === 'naive_resume');
      if (found) return found;
      assert.ok(Date.now() < end, `no naive_resume incident for ${NAIVE.name}: ${JSON.stringify(listed)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  const incident = await naiveIncident();
  assert.equal(incident.status, 'open');
  assert.equal(errorCode(await call(viewer, 'incidents', { limit: 500 })), '-32602', 'at most 20 at a time');

  const refused = await call(viewer, 'acknowledge_incident', { id: incident.id });
  assert.equal(errorCode(refused), 'forbidden');
  const admin = (await connect(ADMIN)).client;
  const acked = structured(await call(admin, 'acknowledge_incident', { id: incident.id }));
  assert.equal(acked.incident.status, 'acknowledged');
  const stored = (await fetch(`${app.url}/api/v1/incidents/${incident.id}`, { headers: { authorization: `Bearer ${ADMIN}` } }).then((r) =>
    r.json(),
  )) as { incident: { acknowledgedBy: string } };
  assert.equal(stored.incident.acknowledgedBy, acked.incident.acknowledgedBy);
  assert.notEqual(stored.incident.acknowledgedBy, 'unknown operator', "the operator's name travels with the call");
  assert.equal(errorCode(await call(admin, 'acknowledge_incident', { id: incident.id })), 'incident_already_acknowledged');
  assert.equal(errorCode(await call(admin, 'acknowledge_incident', { id: 'inc_nobody' })), 'incident_not_found');
});

test("a session is its operator's: another token gets 404 for it, as after DELETE", async () => {
  const { client, transport } = await connect(ADMIN);
  const sid = transport.sessionId!;
  const list = (token: string) =>
    fetch(`${app.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': sid,
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 99, method: 'tools/list' }),
    });
  const foreign = await list(viewerToken);
  assert.equal(foreign.status, 404);
  await foreign.body?.cancel();
  const own = await list(ADMIN);
  assert.equal(own.status, 200);
  await own.body?.cancel();
  await transport.terminateSession();
  const ended = await list(ADMIN);
  assert.equal(ended.status, 404);
  await ended.body?.cancel();
  await client.close();
});

test(
  'a tool call whose stream is cut mid-answer resumes with Last-Event-ID; Doorwatch reports its own resume',
  { timeout: 90_000 },
  async () => {
    const { client, transport } = await connect(ADMIN, `http://127.0.0.1:${proxy.port}/mcp`);
    const sessionId = transport.sessionId!;
    let cut = false;
    const tokens: string[] = [];
    const result = (await client.callTool({ name: 'run_probe', arguments: { server: 'door-target' } }, undefined, {
      onresumptiontoken: (t) => {
        tokens.push(t);
        // The priming event arrived: the probe is running. Reset every connection through the proxy once.
        if (!cut) {
          cut = true;
          proxy.down();
          proxy.up();
        }
      },
      timeout: 60_000,
    })) as CallToolResult;
    assert.ok(cut, 'the stream was cut');
    assert.ok(tokens.length >= 2, 'the answer came on the resumed stream');
    const run = structured(result);
    assert.equal(run.verdict, 'pass');
    assert.equal(run.steps.length, 4);

    // Doorwatch's own session, reported through the SDK adapter to its own ingest.
    const deadline = Date.now() + 20_000;
    let events: { type: string; data: Record<string, unknown> }[] = [];
    while (Date.now() < deadline) {
      const res = await fetch(`${app.url}/api/v1/servers/${SELF}/sessions/${sessionId}`, { headers: { authorization: `Bearer ${ADMIN}` } });
      if (res.status === 200) {
        events = ((await res.json()) as { timeline: typeof events }).timeline;
        if (events.some((e) => e.type === 'resume.accepted')) break;
      } else await res.body?.cancel();
      await new Promise((r) => setTimeout(r, 200));
    }
    const types = events.map((e) => e.type).join(',');
    assert.ok(
      events.some((e) => e.type === 'session.opened'),
      types,
    );
    // The tool call's own stream was resumed from the cursor its priming event gave.
    assert.ok(
      events.some((e) => e.type === 'resume.requested' && e.data.lastEventId === tokens[0]),
      `${types}: a resume from ${tokens[0]}`,
    );
    assert.ok(
      events.some((e) => e.type === 'resume.accepted'),
      types,
    );
    const servers = await admin('/api/v1/servers');
    const self = servers.body.servers.find((s: { name: string }) => s.name === SELF);
    assert.ok(self, 'Doorwatch shows itself as a server');
    assert.ok(self.sessions >= 1);
  },
);
