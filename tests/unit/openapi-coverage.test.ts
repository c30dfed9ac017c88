// Every route handler under app/api is described in the OpenAPI document, method by method, so
// scripts and other tools can trust it as the whole API (ingest excepted: docs/contract.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { buildOpenApiDocument } from '@/lib/contract/api/openapi';

const NOT_IN_OPENAPI = new Set(['/api/v1/openapi.json', '/api/v1/ingest/{server}']);

function routes(dir: string, path: string, out: { path: string; methods: string[] }[] = []) {
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) routes(full, `${path}/${name.replace(/^\[(.+)\]$/, '{$1}')}`, out);
    else if (name === 'route.ts') {
      const methods = [...readFileSync(full, 'utf8').matchAll(/export const (GET|POST|PUT|PATCH|DELETE)\b/g)].map((m) => m[1].toLowerCase());
      out.push({ path, methods });
    }
  }
  return out;
}

test('the OpenAPI document describes every route and method', () => {
  const doc = buildOpenApiDocument() as { paths: Record<string, Record<string, unknown>> };
  const found = routes(join('app', 'api'), '/api');
  assert.ok(found.length >= 15, `found ${found.length} routes`);
  const missing = found.filter((r) => !NOT_IN_OPENAPI.has(r.path)).flatMap((r) => r.methods.filter((m) => !doc.paths[r.path]?.[m]).map((m) => `${m.toUpperCase()} ${r.path}`));
  assert.deepEqual(missing, []);
  const stale = Object.keys(doc.paths).filter((p) => !found.some((r) => r.path === p));
  assert.deepEqual(stale, [], 'documented paths that have no route');
});
