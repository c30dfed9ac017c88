// The real part: Debian's Prometheus (/usr/bin/prometheus) on loopback scrapes a fresh Doorwatch
// every second with the shipped rules (docs/prometheus/doorwatch-rules.yml) loaded. Before any event
// it already has every registered server's naive-resume series at 0; after one naive resume on
// alpha, DoorwatchNaiveResume goes active (pending, or firing: the rule has no `for`) for alpha
// with the value 1, and for nobody else. Bounded: every wait has a deadline and fails with what
// Prometheus last said.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { generateSecret } from '@/lib/contract/server-secret';
import { TEST_ADMIN_TOKEN, startAppServer, type AppServer } from '../support/app-server';
import { postEvents } from '../support/post-events';
import { RULES_FILE } from '../support/prometheus-docs';

const PROMETHEUS = process.env.PROMETHEUS_BIN ?? 'prometheus';
const SECRETS = { alpha: generateSecret(), beta: generateSecret() };
const WAIT_MS = 90_000;

let app: AppServer;
let prometheus: ChildProcess | null = null;
let promUrl = '';
let dir = '';
let promLog = '';

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => ok(port));
    });
  });
}

before(async () => {
  const version = spawnSync(PROMETHEUS, ['--version'], { encoding: 'utf8' });
  assert.ok(
    !version.error && version.status === 0,
    `Prometheus is required for this test: install Debian's package (apt-get install -y prometheus) or set PROMETHEUS_BIN (${version.error?.message ?? version.stderr})`,
  );
  app = await startAppServer({
    env: {
      DOORWATCH_SERVERS: Object.entries(SECRETS)
        .map(([n, s]) => `${n}=${s}`)
        .join(','),
    },
  });
  dir = mkdtempSync(join(tmpdir(), 'dw-prometheus-'));
  const target = new URL(app.url).host;
  writeFileSync(
    join(dir, 'prometheus.yml'),
    [
      'global:',
      '  scrape_interval: 1s',
      '  evaluation_interval: 1s',
      'rule_files:',
      `  - ${JSON.stringify(resolve(RULES_FILE))}`,
      'scrape_configs:',
      '  - job_name: doorwatch',
      '    metrics_path: /metrics',
      '    authorization:',
      `      credentials: ${JSON.stringify(TEST_ADMIN_TOKEN)}`,
      '    static_configs:',
      `      - targets: [${JSON.stringify(target)}]`,
      '',
    ].join('\n'),
  );
  const port = await freePort();
  promUrl = `http://127.0.0.1:${port}`;
  prometheus = spawn(
    PROMETHEUS,
    [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  prometheus.stdout!.on('data', (b: Buffer) => (promLog += b.toString()));
  prometheus.stderr!.on('data', (b: Buffer) => (promLog += b.toString()));
});

after(async () => {
  if (prometheus && prometheus.exitCode === null) {
    const exited = new Promise((r) => prometheus!.once('exit', r));
    prometheus.kill('SIGTERM');
    await exited;
  }
  await app?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function api<T>(path: string): Promise<T> {
  const res = await fetch(`${promUrl}${path}`);
  const body = (await res.json()) as { status: string; data: T };
  assert.equal(body.status, 'success', JSON.stringify(body));
  return body.data;
}

/** Polls `read` until `done` holds for its value, at most WAIT_MS; the failure shows the last value. */
async function until<T>(what: string, read: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  let last: T | string = 'nothing yet';
  while (Date.now() < deadline) {
    assert.equal(prometheus?.exitCode ?? null, null, `prometheus exited:\n${promLog}`);
    try {
      const v = await read();
      if (done(v)) return v;
      last = v;
    } catch (err) {
      last = err instanceof Error ? err.message : String(err);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  assert.fail(`${what} within ${WAIT_MS} ms; last: ${JSON.stringify(last)}\nprometheus log:\n${promLog}`);
}

type Sample = { metric: Record<string, string>; value: [number, string] };
type Alert = { labels: Record<string, string>; state: string; value: string };
const query = (q: string) => api<{ result: Sample[] }>(`/api/v1/query?query=${encodeURIComponent(q)}`).then((d) => d.result);

function naiveResume(token: string, t0: number) {
  const at = (ms: number) => new Date(t0 + ms).toISOString();
  return [
    ['session.opened', 0, {}],
    ['upgrade.accepted', 100, { eventId: 3 }],
    ['stream.dropped', 150, { reason: 'reset' }],
    ['resume.requested', 200, { lastEventId: 3 }],
    ['resume.accepted', 250, { replayed: 0 }],
  ].map(([type, ms, data], i) => ({ id: `${token}.${i}`, token, type, at: at(ms as number), data }));
}

test('Prometheus scrapes a fresh instance with the shipped rules; one naive resume makes DoorwatchNaiveResume active', async () => {
  const groups = await until(
    'the shipped rules loaded',
    () => api<{ groups: { name: string; rules: { name: string; health: string }[] }[] }>('/api/v1/rules').then((d) => d.groups),
    (g) => g.length === 2,
  );
  assert.ok(
    groups.flatMap((g) => g.rules).some((r) => r.name === 'DoorwatchNaiveResume'),
    'DoorwatchNaiveResume is among the loaded rules',
  );

  // The series exist at 0 before anything happened, for every registered server, over two scrapes at least.
  const zero = await until(
    'two scrapes of the fresh instance with naive-resume series at 0',
    () => query('count_over_time(doorwatch_naive_resumes_total[1m])'),
    (r) => r.length === 2 && r.every((s) => Number(s.value[1]) >= 2),
  );
  assert.deepEqual(zero.map((s) => s.metric.server).sort(), ['alpha', 'beta']);
  assert.deepEqual(
    (await query('max_over_time(doorwatch_naive_resumes_total[1m])')).map((s) => s.value[1]),
    ['0', '0'],
  );
  assert.deepEqual(
    (await query('doorwatch_deadlocks_ongoing')).map((s) => s.value[1]),
    ['0', '0'],
    'gauges print 0',
  );
  assert.deepEqual((await api<{ alerts: Alert[] }>('/api/v1/alerts')).alerts, [], 'nothing active before the resume');

  const posted = await postEvents(app.url, 'alpha', SECRETS.alpha, naiveResume('prom-naive', Date.now() - 1_000));
  assert.equal(posted.status, 200, JSON.stringify(posted.body));

  const alerts = await until(
    'DoorwatchNaiveResume active for alpha',
    () => api<{ alerts: Alert[] }>('/api/v1/alerts').then((d) => d.alerts.filter((a) => a.labels.alertname === 'DoorwatchNaiveResume')),
    (a) => a.some((x) => x.labels.server === 'alpha' && (x.state === 'pending' || x.state === 'firing')),
  );
  assert.deepEqual(
    alerts.map((a) => [a.labels.server, Number(a.value)]),
    [['alpha', 1]],
    'one alert, for alpha, counting one resume',
  );
});
