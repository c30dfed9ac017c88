// The audit log's redaction (lib/store/audit-redaction.ts), pure: for each entity type a secret
// is planted where that entity carries one, and the redacted form must not contain it anywhere.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { REDACTED, redactForAudit } from '@/lib/store/audit-redaction';
import type { TAuditEntityType } from '@/lib/contract/api/audit';

const WEBHOOK_SECRET = 'whsec_PLANTEDc2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0';
const OPERATOR_TOKEN = 'dw_PLANTEDtokenAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
const URL_PATH_SECRET = 'PLANTEDpathSecretXYZ';
const QUERY_SECRET = 'PLANTEDquerySecret';
const PASSWORD = 'PLANTEDpassword';
const CREDENTIAL = 'Bearer PLANTEDprobeCredential';

const cases: { entityType: TAuditEntityType; value: unknown; planted: string[]; kept: string[] }[] = [
  {
    entityType: 'server',
    value: { name: 'edge', secret: WEBHOOK_SECRET, createdAt: '2026-12-04T00:00:00.000Z' },
    planted: [WEBHOOK_SECRET],
    kept: ['edge'],
  },
  {
    entityType: 'server_secret',
    value: { keyring: [{ id: 's1', note: `rotated from ${WEBHOOK_SECRET}` }] },
    planted: [WEBHOOK_SECRET.slice('whsec_'.length)],
    kept: ['s1', 'whsec_[redacted]'],
  },
  {
    entityType: 'operator',
    value: { id: 'op_1', name: 'ada', role: 'admin', tokenHash: 'abc123hash', token: OPERATOR_TOKEN, note: `minted ${OPERATOR_TOKEN}` },
    planted: [OPERATOR_TOKEN.slice(3), 'abc123hash'],
    kept: ['ada', 'admin'],
  },
  {
    entityType: 'alert_rule',
    value: {
      id: 'r1',
      name: 'naive',
      threshold: 0,
      contactPointIds: ['cp1'],
      webhook: `https://u:${PASSWORD}@hooks.example.test/x?key=${QUERY_SECRET}`,
    },
    planted: [PASSWORD, QUERY_SECRET],
    kept: ['naive', 'hooks.example.test'],
  },
  {
    entityType: 'contact_point',
    value: {
      id: 'cp1',
      name: 'pager',
      url: `https://hooks.slack.example/services/T0/B0/${URL_PATH_SECRET}?token=${QUERY_SECRET}`,
      secret: WEBHOOK_SECRET,
      headers: { Authorization: `Bearer ${PASSWORD}` },
    },
    planted: [URL_PATH_SECRET, QUERY_SECRET, WEBHOOK_SECRET, PASSWORD],
    kept: ['pager', 'https://hooks.slack.example/…'],
  },
  {
    entityType: 'probe_target',
    value: {
      server: 'edge',
      url: 'https://mcp.example.test/mcp',
      credentialHeader: 'Authorization',
      credentialSet: true,
      credential: { header: 'Authorization', value: CREDENTIAL },
    },
    planted: [CREDENTIAL, 'PLANTEDprobeCredential'],
    kept: ['Authorization', 'https://mcp.example.test/mcp'],
  },
  {
    entityType: 'silence',
    value: { id: 'sil_1', reason: `maintenance, key ${WEBHOOK_SECRET}`, apiKey: PASSWORD },
    planted: [WEBHOOK_SECRET, PASSWORD],
    kept: ['maintenance'],
  },
  {
    entityType: 'incident',
    value: { id: 'inc_1', status: 'acknowledged', note: { text: `token was ${OPERATOR_TOKEN}` } },
    planted: [OPERATOR_TOKEN],
    kept: ['acknowledged'],
  },
  {
    entityType: 'annotation',
    value: { id: 'a1', text: 'deploy v2', password: PASSWORD, tags: ['deploy'] },
    planted: [PASSWORD],
    kept: ['deploy v2'],
  },
];

for (const c of cases) {
  test(`${c.entityType}: the planted secret is gone, the rest is kept`, () => {
    const text = JSON.stringify(redactForAudit(c.entityType, c.value));
    for (const secret of c.planted) assert.ok(!text.includes(secret), `${secret} leaked: ${text}`);
    for (const k of c.kept) assert.ok(text.includes(k), `${k} lost: ${text}`);
  });
}

test('a contact point URL keeps its origin and a fingerprint: a changed URL shows as changed', () => {
  const a = redactForAudit('contact_point', { url: `https://hooks.example.test/a/${URL_PATH_SECRET}` }) as { url: string };
  const b = redactForAudit('contact_point', { url: 'https://hooks.example.test/a/other' }) as { url: string };
  assert.match(a.url, /^https:\/\/hooks\.example\.test\/… \(sha256 [0-9a-f]{12}\)$/);
  assert.notEqual(a.url, b.url);
});

test('secret-named fields are replaced whole; empty ones stay empty; plain values and shapes are kept', () => {
  assert.deepEqual(redactForAudit('server', { secret: 'x', token: null, credentialSet: false, n: 3, on: true, list: [1, 'a'] }), {
    secret: REDACTED,
    token: null,
    credentialSet: false,
    n: 3,
    on: true,
    list: [1, 'a'],
  });
  assert.equal(redactForAudit('server', null), null);
});

test('dates become ISO text and depth is bounded', () => {
  assert.deepEqual(redactForAudit('server', { at: new Date(0) }), { at: '1970-01-01T00:00:00.000Z' });
  let deep: unknown = 'bottom';
  for (let i = 0; i < 50; i++) deep = { d: deep };
  assert.ok(JSON.stringify(redactForAudit('server', deep)).includes(REDACTED));
});
