// The generated document passes Redocly's recommended rules with no errors, so client generators
// and API tools can take it as is. Warnings are printed (they are advice, not breakage).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { buildOpenApiDocument } from '@/lib/contract/api/openapi';

test('the OpenAPI document has no errors under Redocly’s recommended rules', async () => {
  const config = await createConfig({ extends: ['recommended'] });
  const problems = await lintFromString({ source: JSON.stringify(buildOpenApiDocument()), absoluteRef: 'openapi.json', config });
  const describe = (p: (typeof problems)[number]) =>
    `${p.severity} ${p.ruleId}: ${p.message} at ${p.location.map((l) => l.pointer).join(', ')}`;
  for (const p of problems.filter((p) => p.severity !== 'error')) console.log(describe(p));
  assert.deepEqual(problems.filter((p) => p.severity === 'error').map(describe), []);
});

test('the lint can fail: an operation without summary, security and responses is refused', async () => {
  const config = await createConfig({ extends: ['recommended'] });
  const doc = buildOpenApiDocument() as { paths: Record<string, Record<string, Record<string, unknown>>> };
  for (const op of Object.values(doc.paths['/api/v1/stats'])) {
    delete op.summary;
    delete op.security;
    delete op.responses;
  }
  const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: 'openapi.json', config });
  assert.ok(
    problems.some((p) => p.severity === 'error'),
    'expected errors for a broken operation',
  );
});
