// packages/reporter-python/doorwatch_reporter.py, run by the machine's python3 against the real
// built Doorwatch: a refusing server's boundary session is stored with its verdict; the retry path
// (503 + Retry-After twice, through a scripted proxy), loss reporting (a batch given up on is
// counted as failed and sent with the next batch) and a wrong secret (401, not retried).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { startAppServer, TEST_ADMIN_TOKEN, type AppServer } from '@/tests/support/app-server';
import { readReportedSession, REFUSED_TIMELINE_TYPES } from '@/tests/support/reported-session';
import { generateSecret } from '@/lib/contract/server-secret';
import { testProvider } from '../support/test-database';

const run = promisify(execFile);
const MODULE_DIR = join(resolve(import.meta.dirname, '../..'), 'packages/reporter-python');
const SERVER = { name: 'py-server', secret: generateSecret() };

const SCRIPT = `
import json, sys
from datetime import datetime, timedelta, timezone
sys.path.insert(0, sys.argv[1])
from doorwatch_reporter import Reporter, new_event_id

proxy, app, server, secret, wrong_secret = sys.argv[2:7]
errors = []
on_error = lambda e: errors.append({"code": e.code, "status": e.status, "ids": e.event_ids})
t0 = datetime.now(timezone.utc) - timedelta(seconds=5)
at = lambda ms: (t0 + timedelta(milliseconds=ms)).isoformat(timespec="milliseconds").replace("+00:00", "Z")
ev = lambda token, ms, type, **data: {"id": new_event_id(), "token": token, "at": at(ms), "type": type, "data": data}

# A refusing server's boundary session, through a proxy that answers 503 twice first.
a = Reporter(proxy, server, secret, instance="py-retry", version="py-2.0.1", flush_interval=0.05, base_backoff=0.05, on_error=on_error)
timeline = [
    ev("tok-py", 0, "session.opened"),
    ev("tok-py", 100, "upgrade.accepted", eventId=7),
    ev("tok-py", 150, "stream.dropped", reason="reset"),
    ev("tok-py", 200, "resume.requested", lastEventId=7),
    ev("tok-py", 250, "resume.refused", reason="superseded"),
]
for e in timeline:
    a.report(e)
a_done = a.close(timeout=30)

# No retries: the batch answered 503 is given up on (failed), and the next batch says so.
b = Reporter(proxy, server, secret, instance="py-loss", flush_interval=0.05, max_retries=0, on_error=on_error)
lost = ev("tok-py-loss", 0, "session.opened")
b.report(lost)
b.flush(timeout=30)
kept = ev("tok-py-loss", 100, "session.closed")
b.report(kept)
b_done = b.close(timeout=30)

# A wrong secret is refused with 401 and not retried.
c = Reporter(app, server, wrong_secret, instance="py-wrong", flush_interval=0.05, on_error=on_error)
refused = ev("tok-py-wrong", 0, "session.opened")
c.report(refused)
c_done = c.close(timeout=30)

# A version outside the contract's pattern fails at construction, never per batch.
bad_version = None
try:
    Reporter(app, server, secret, version="v1 <b>")
except ValueError as err:
    bad_version = str(err)

print(json.dumps({
    "badVersion": bad_version,
    "done": [a_done, b_done, c_done],
    "ids": [e["id"] for e in timeline], "lost": lost["id"], "kept": kept["id"], "refused": refused["id"],
    "a": a.stats(), "b": b.stats(), "c": c.stats(), "errors": errors,
}))
`;

interface Attempt {
  webhookId: string;
  status: number;
  at: number;
}

const FORWARD = 0;

/**
 * Answers request n by plan[n]: a status (503 + Retry-After: 1) or FORWARD to the app; requests
 * past the plan are forwarded.
 */
function startProxy(target: string, plan: number[]): Promise<{ server: Server; url: string; attempts: Attempt[] }> {
  const attempts: Attempt[] = [];
  // The request handler is async; errors surface as a failed test through the missing answer.
  const server = createServer(
    (req, res) =>
      void (async () => {
        const chunks: Buffer[] = [];
        for await (const c of req) chunks.push(c as Buffer);
        const webhookId = String(req.headers['webhook-id']);
        const planned = plan[attempts.length] ?? FORWARD;
        if (planned !== FORWARD) {
          attempts.push({ webhookId, status: planned, at: performance.now() });
          res.writeHead(planned, { 'content-type': 'application/json', 'retry-after': '1' });
          res.end(JSON.stringify({ error: { code: 'unavailable', message: 'scripted' } }));
          return;
        }
        const headers: Record<string, string> = {};
        for (const name of ['content-type', 'webhook-id', 'webhook-timestamp', 'webhook-signature'])
          headers[name] = String(req.headers[name]);
        const answer = await fetch(`${target}${req.url}`, { method: 'POST', headers, body: Buffer.concat(chunks) });
        attempts.push({ webhookId, status: answer.status, at: performance.now() });
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(await answer.text());
      })(),
  );
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, attempts })),
  );
}

let app: AppServer;
let proxy: Awaited<ReturnType<typeof startProxy>>;

before(async () => {
  app = await startAppServer({ env: { DOORWATCH_SERVERS: `${SERVER.name}=${SERVER.secret}` } });
  // Requests 1-3: reporter a's batch (503, 503, then through); 4: reporter b's first batch (503).
  proxy = await startProxy(app.url, [503, 503, FORWARD, 503]);
});

after(async () => {
  proxy?.server.close();
  await app?.stop();
});

test(
  'the Python reporter delivers through 503s, reports its losses, and its session gets the refusing verdict',
  { skip: testProvider() !== 'sqlite' && 'the reporter and its wire format do not depend on the database: run once, on SQLite' },
  async () => {
    const wrongSecret = generateSecret();
    const out = await run('python3', ['-c', SCRIPT, MODULE_DIR, proxy.url, app.url, SERVER.name, SERVER.secret, wrongSecret], {
      timeout: 120_000,
    });
    const r = JSON.parse(out.stdout) as {
      done: boolean[];
      ids: string[];
      lost: string;
      kept: string;
      refused: string;
      a: Record<string, number>;
      b: Record<string, number>;
      c: Record<string, number>;
      errors: { code: string; status: number | null; ids: string[] }[];
      badVersion: string | null;
    };
    assert.deepEqual(r.done, [true, true, true]);

    // a: the same message (webhook-id) three times, each retry after the server's Retry-After.
    const [first, second, third] = proxy.attempts;
    assert.deepEqual([first.status, second.status, third.status], [503, 503, 200]);
    assert.equal(new Set([first.webhookId, second.webhookId, third.webhookId]).size, 1);
    assert.ok(second.at - first.at >= 950 && third.at - second.at >= 950, 'Retry-After: 1 is a floor');
    assert.deepEqual([r.a.accepted, r.a.retries, r.a.failed], [5, 2, 0]);

    const stored = await readReportedSession(app, SERVER.name, 'tok-py');
    assert.deepEqual(stored.eventIds, r.ids);
    assert.deepEqual(stored.types, REFUSED_TIMELINE_TYPES);
    assert.equal(stored.boundaryOutcome, 'refused');
    assert.equal(stored.verdict, 'refuses');

    // a named its version and instance: the session records them and the server's versions list it.
    const headers = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
    const detail = await (await fetch(`${app.url}/api/v1/servers/${SERVER.name}/sessions/tok-py`, { headers })).json();
    assert.equal(detail.session.version, 'py-2.0.1');
    assert.equal(detail.session.instance, 'py-retry');
    const versions = await (await fetch(`${app.url}/api/v1/servers/${SERVER.name}/versions`, { headers })).json();
    assert.deepEqual(
      versions.versions.map((v: { version: string; sessions: number; refusals: number }) => [v.version, v.sessions, v.refusals]),
      [['py-2.0.1', 1, 1]],
    );
    assert.match(r.badVersion ?? '', /version must be/);

    // b: the batch answered 503 with no retries left is failed, and the next batch carries the count.
    assert.deepEqual([r.b.accepted, r.b.failed, r.b.retries], [1, 1, 0]);
    assert.deepEqual((await readReportedSession(app, SERVER.name, 'tok-py-loss')).eventIds, [r.kept]);

    // c: 401 for the wrong secret, not retried, nothing stored.
    assert.deepEqual([r.c.rejected, r.c.retries, r.c.accepted], [1, 0, 0]);
    assert.deepEqual((await readReportedSession(app, SERVER.name, 'tok-py-wrong')).eventIds, []);
    assert.equal(proxy.attempts.length, 5);

    assert.deepEqual(r.errors, [
      { code: 'retries_exhausted', status: 503, ids: [r.lost] },
      { code: 'batch_rejected', status: 401, ids: [r.refused] },
    ]);
    assert.deepEqual(stored.reporters, [
      { instance: 'py-loss', dropped: 0, failed: 1 },
      { instance: 'py-retry', dropped: 0, failed: 0 },
    ]);
  },
);
