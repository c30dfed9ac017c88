// docs/prometheus: the rules file passes `promtool check rules` (Debian's prometheus package) and its
// unit tests (`promtool test rules`: two instances, the exact naive-resume window, the database-down
// alert); the Grafana dashboard is valid JSON with a PromQL target on every panel, and counts the
// database-derived families once across instances (max by server), never summed over instances. That both only name
// metrics /metrics exposes is checked against the running app in tests/integration/observability.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DASHBOARD_FILE, RULES_FILE, dashboardExpressions, metricNamesIn, rulesText } from '../support/prometheus-docs';

test('promtool check rules accepts docs/prometheus/doorwatch-rules.yml', () => {
  const r = spawnSync('promtool', ['check', 'rules', RULES_FILE], { encoding: 'utf8', timeout: 30_000 });
  assert.equal(r.error, undefined, 'promtool (Debian package prometheus) must be installed');
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /SUCCESS: \d+ rules found/);
  for (const alert of [
    'DoorwatchDeadlockOngoing',
    'DoorwatchNaiveResume',
    'DoorwatchDualNegotiation',
    'DoorwatchIngestRejections',
    'DoorwatchRefusalLatencyHigh',
    'DoorwatchDatabaseDown',
  ]) {
    assert.match(rulesText(), new RegExp(`alert: ${alert}\\b`));
  }
  assert.match(rulesText(), /histogram_quantile\(0\.95, max by \(server, le\) \(rate\(doorwatch_refusal_latency_seconds_bucket/);
});

test('promtool test rules: two instances count once, the naive-resume window is exact, a database down pages', () => {
  const r = spawnSync('promtool', ['test', 'rules', 'doorwatch-rules.test.yml'], {
    cwd: dirname(RULES_FILE),
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.equal(r.error, undefined, 'promtool (Debian package prometheus) must be installed');
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /SUCCESS/);
});

test('promtool test rules fails on rules that sum over instances (the test above can fail)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dw-rules-'));
  writeFileSync(join(dir, 'doorwatch-rules.yml'), rulesText().replaceAll('max by (server', 'sum by (server'));
  writeFileSync(join(dir, 'doorwatch-rules.test.yml'), readFileSync(join(dirname(RULES_FILE), 'doorwatch-rules.test.yml'), 'utf8'));
  const r = spawnSync('promtool', ['test', 'rules', 'doorwatch-rules.test.yml'], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
  assert.notEqual(r.status, 0);
  assert.match(r.stdout + r.stderr, /got: \{__name__="doorwatch:dual_negotiations:increase15m", server="alpha"\} 4/);
});

// Families read from the shared database: every instance prints the same value.
const DATABASE_DERIVED =
  /doorwatch_(boundary_entries|naive_resumes|dual_negotiations|burned_token_reuses|renegotiations|deadlocks_ended|events_accepted|ingest_rejected_requests)_total|doorwatch_(deadlocks_ongoing|upgrades_pending)\b|doorwatch_(refusal|renegotiation)_latency_seconds_bucket/;

test('the dashboard aggregates database-derived families with max by (server) before anything else', () => {
  const derived = dashboardExpressions().filter((e) => DATABASE_DERIVED.test(e) && !e.startsWith('label_values('));
  assert.ok(derived.length >= 10);
  for (const expr of derived) {
    assert.match(expr, /max by \(server\b/, expr);
    assert.doesNotMatch(expr, /sum(?: by \([^)]*\))? \((?:rate|increase)?\(?doorwatch_/, `${expr}: sums the instances' copies`);
  }
});

test('promtool check rules fails on a broken expression (the check above can fail)', () => {
  const broken = readFileSync(RULES_FILE, 'utf8').replace('> 0\n        for: 30s', '> > 0\n        for: 30s');
  assert.notEqual(broken, readFileSync(RULES_FILE, 'utf8'));
  const file = join(mkdtempSync(join(tmpdir(), 'dw-rules-')), 'broken.yml');
  writeFileSync(file, broken);
  const r = spawnSync('promtool', ['check', 'rules', file], { encoding: 'utf8', timeout: 30_000 });
  assert.notEqual(r.status, 0);
  assert.match(r.stdout + r.stderr, /parse error/i);
});

test('the Grafana dashboard parses, every panel queries doorwatch metrics', () => {
  const doc = JSON.parse(readFileSync(DASHBOARD_FILE, 'utf8')) as {
    title: string;
    uid: string;
    panels: { id: number; targets: { expr: string }[] }[];
  };
  assert.equal(doc.uid, 'doorwatch');
  assert.ok(doc.panels.length >= 8);
  assert.equal(new Set(doc.panels.map((p) => p.id)).size, doc.panels.length);
  for (const p of doc.panels) {
    assert.ok(p.targets.length > 0);
    for (const t of p.targets) assert.ok(metricNamesIn(t.expr).length > 0, t.expr);
  }
  assert.ok(dashboardExpressions().length > doc.panels.length);
});
