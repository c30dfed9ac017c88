// The OpenAPI document is generated from API_ROUTES; this checks that list against the app tree:
// every route.ts under app/api exports only defineRoute handlers, each serving the declaration for
// its own path and method, and 405 handlers (refuseOtherMethods) for every other method; every
// declaration is served by a file. A route written without the wrapper, a declaration nobody serves,
// or a method left to Next's empty 405, fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildOpenApiDocument } from '@/lib/contract/api/openapi';
import { API_ROUTES } from '@/lib/contract/api/routes';
import type { RouteContract } from '@/lib/contract/api/route-contract';
import { ROUTE_METHODS, type RefusedMethod } from '@/lib/route/method-not-allowed';

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);

// The JSON 404 for any /api path no route serves: an answer for what is not an operation, not one.
const UNKNOWN_PATH_FALLBACK = join('app', 'api', '[[...missing]]');

function routeFiles(dir: string, path: string, out: { path: string; file: string }[] = []) {
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    if (full === UNKNOWN_PATH_FALLBACK) continue;
    if (statSync(full).isDirectory()) routeFiles(full, `${path}/${name.replace(/^\[(.+)\]$/, '{$1}')}`, out);
    else if (/^route\.(ts|tsx|js)$/.test(name)) out.push({ path, file: resolve(full) });
  }
  return out;
}

test('every app/api handler is a defineRoute serving the declaration of its own path and method, and nothing else is declared', async () => {
  const files = [
    ...routeFiles(join('app', 'api'), '/api'),
    ...routeFiles(join('app', 'metrics'), '/metrics'),
    ...routeFiles(join('app', 'mcp'), '/mcp'),
  ];
  const served: RouteContract[] = [];
  const problems: string[] = [];
  for (const { path, file } of files) {
    const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    const answered = new Set(Object.keys(mod).filter((name) => METHODS.has(name)));
    if (answered.has('GET')) answered.add('HEAD');
    const unanswered = ROUTE_METHODS.filter((m) => !answered.has(m));
    if (unanswered.length) problems.push(`${path}: ${unanswered.join(', ')} left to Next's empty 405 (export refuseOtherMethods)`);
    for (const [name, value] of Object.entries(mod)) {
      if (!METHODS.has(name)) continue;
      const refuses = (value as Partial<RefusedMethod>).refuses;
      if (refuses !== undefined) {
        if (refuses !== path) problems.push(`${name} ${path}: refuses for ${refuses}`);
        continue;
      }
      const contract = (value as { contract?: RouteContract }).contract;
      if (typeof value !== 'function' || !contract) problems.push(`${name} ${path}: not a defineRoute handler`);
      else if (contract.method !== name || contract.path !== path)
        problems.push(`${name} ${path}: serves ${contract.method} ${contract.path}`);
      else if (!API_ROUTES.includes(contract)) problems.push(`${name} ${path}: its contract is not in API_ROUTES (so not documented)`);
      else served.push(contract);
    }
  }
  assert.deepEqual(problems, []);
  assert.equal(files.length, new Set(served.map((c) => c.path)).size, 'a route file exports no handler');
  const unserved = API_ROUTES.filter((c) => !served.includes(c)).map((c) => `${c.method} ${c.path}`);
  assert.deepEqual(unserved, [], 'declared but no route file serves it');
});

test('the document has one operation per declaration, each with a unique operationId', () => {
  const doc = buildOpenApiDocument() as { paths: Record<string, Record<string, { operationId: string }>> };
  const ops = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([m, op]) => ({ key: `${m.toUpperCase()} ${path}`, id: op.operationId })),
  );
  assert.deepEqual(ops.map((o) => o.key).sort(), API_ROUTES.map((c) => `${c.method} ${c.path}`).sort());
  assert.equal(new Set(ops.map((o) => o.id)).size, ops.length);
});
