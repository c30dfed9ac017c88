// The rule of eslint.config.mjs that keeps Node modules out of what the browser loads (components, lib/ui,
// lib/contract): Next bundles a shim for any it finds (server-secret.ts's node:crypto once put crypto-browserify
// in every page). Planted snippets, linted with the project's own config, are refused there and accepted on the
// server's side.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { plantedLint as eslint, ROOT } from '../support/planted-lint';

async function importProblems(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, filePath) });
  assert.deepEqual(
    result.messages.filter((m) => m.fatal),
    [],
    'the planted file must parse',
  );
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

const NODE_IMPORT = "import { randomBytes } from 'node:crypto';\nexport const planted = randomBytes;\n";
const SECRET_IMPORT = "import { generateSecret } from '@/lib/contract/server-secret';\nexport const planted = generateSecret;\n";
const NAME_IMPORT = "import { SERVER_NAME } from '@/lib/contract/server-name';\nexport const planted = SERVER_NAME;\n";

test('a Node module is refused in the UI, its plumbing and the contracts; allowed on the server side', async () => {
  for (const file of ['components/planted.tsx', 'lib/ui/planted.ts', 'lib/contract/api/planted.ts']) {
    const found = await importProblems(NODE_IMPORT, file);
    assert.equal(found.length, 1, `${file}: ${found.join('\n')}`);
    assert.match(found[0], /cannot use Node modules/);
  }
  assert.deepEqual(await importProblems(NODE_IMPORT, 'lib/store/planted.ts'), []);
  assert.deepEqual(await importProblems(NODE_IMPORT, 'lib/contract/server-secret.ts'), []);
});

test('server-secret is refused where the browser loads it (alias or relative); the server name is not', async () => {
  assert.match((await importProblems(SECRET_IMPORT, 'lib/contract/api/planted.ts'))[0] ?? '', /server-only/);
  assert.match(
    (await importProblems(SECRET_IMPORT.replace('@/lib/contract/server-secret', '../server-secret'), 'lib/contract/api/planted.ts'))[0] ??
      '',
    /server-only/,
  );
  assert.match((await importProblems(SECRET_IMPORT, 'components/planted.tsx'))[0] ?? '', /server-only/);
  assert.deepEqual(await importProblems(SECRET_IMPORT, 'lib/config/planted.ts'), []);
  assert.deepEqual(await importProblems(NAME_IMPORT, 'lib/contract/api/planted.ts'), []);
});
