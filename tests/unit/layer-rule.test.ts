// The layer lint (scripts/lint/layer-rule.mjs) fails on planted upward imports and passes legal ones; the
// real eslint.config.mjs applies it; the table it reads names every lib/ folder, and README's layout rows
// follow the table's order.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { layersPlugin } from '@/scripts/lint/layer-rule.mjs';
import { parseLayerTable, readLayerTable, ROOT } from '@/scripts/lint/layer-table.mjs';

const eslint = new ESLint({
  cwd: ROOT,
  overrideConfigFile: true,
  overrideConfig: [
    {
      files: ['**/*.ts'],
      languageOptions: { parser: tseslint.parser },
      plugins: { layers: layersPlugin },
      rules: { 'layers/no-upward-import': 'error' },
    },
  ],
});

async function messagesOf(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, path) });
  return result.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

describe('layers/no-upward-import on planted files', () => {
  const upward: [string, string, RegExp][] = [
    [
      'lib/store/planted.ts',
      "import { ApiError } from '@/lib/http/api-error';",
      /lib\/store\/planted\.ts \(store.*imports lib\/http\/api-error \(http/,
    ],
    ['lib/config/planted.ts', "import { alarmLevel } from '../ui/alarm';", /imports lib\/ui\/alarm \(ui, lib\/ui\/\), a layer above it/],
    ['lib/metrics/planted.ts', "export { rollupTotalsByServer } from '@/lib/store/rollups';", /imports lib\/store\/rollups/],
    ['lib/db/planted.ts', "export async function f() { return import('@/lib/ingest/ingest-body'); }", /imports lib\/ingest\/ingest-body/],
    ['lib/probes/planted.ts', "import type { SimServer } from '@/scripts/sim/server';", /imports scripts\/sim\/server \(process/],
    ['components/planted.ts', "import { GET } from '@/app/api/health/route';", /imports app\/api\/health\/route \(app/],
    ['lib/ingest/planted.ts', "import { sessionList } from '@/lib/queries/session-list';", /a layer above it/],
  ];
  for (const [path, code, expected] of upward) {
    test(`${path}: ${code}`, async () => {
      const messages = await messagesOf(path, code);
      assert.equal(messages.length, 1, messages.join('\n'));
      assert.match(messages[0], /^layers\/no-upward-import: /);
      assert.match(messages[0], expected);
    });
  }

  test('a wall inside a layer: lib/queries may not import lib/ingest, though it sits above it', async () => {
    const messages = await messagesOf('lib/queries/planted.ts', "import { storeBatch } from '@/lib/ingest/store-batch';");
    assert.deepEqual(messages.length, 1);
    assert.match(messages[0], /may not import lib\/ingest\/store-batch: .*"below except lib\/ingest\/"/);
  });

  test('the contract imports nothing of the app', async () => {
    const messages = await messagesOf('lib/contract/planted.ts', "import { summarize } from '@/lib/boundary/summarize';");
    assert.equal(messages.length, 1);
    assert.match(messages[0], /may import nothing in the app/);
  });

  test('a lib/ folder the table does not name fails, and so does an import of one', async () => {
    const own = await messagesOf('lib/planted-folder/x.ts', 'export const x = 1;');
    assert.deepEqual(own, [
      'layers/no-upward-import: lib/planted-folder/ has no row in the layer table of docs/architecture.md: add one, in layer order',
    ]);
  });

  test('imports down the table, inside a folder, of packages and across one row pass', async () => {
    const legal: [string, string][] = [
      [
        'lib/store/planted.ts',
        "import { TABLE } from './tables';\nimport type { Sql } from '@/lib/db/sql';\nimport { z } from 'zod';\nimport { settings } from '../config/settings';",
      ],
      [
        'lib/route/planted.ts',
        "import { authorize } from '@/lib/auth/require-operator';\nimport { ApiError } from '@/lib/http/api-error';",
      ],
      ['lib/probes/planted.ts', "import { toProbeRunView } from '@/lib/queries/probe-history';"],
      ['app/planted.ts', "import { defineRoute } from '@/lib/route/define-route';\nimport { Panel } from '@/components/panel';"],
      ['instrumentation.ts', "export async function register() { await import('./lib/retention/schedule'); }"],
      ['scripts/planted.ts', "import { startSimServer } from './sim/server';\nimport { getDb } from '@/lib/db/client';"],
      ['tests/unit/planted.test.ts', "import { GET } from '@/app/api/health/route';"],
    ];
    for (const [path, code] of legal) assert.deepEqual(await messagesOf(path, code), [], `${path}: ${code}`);
  });
});

describe('the layer table of docs/architecture.md', () => {
  const rows = readLayerTable();
  const places = rows.flatMap((r) => r.places);

  test('names every lib/ folder once, and only places that exist', () => {
    const folders = readdirSync(join(ROOT, 'lib'), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => `lib/${e.name}/`);
    assert.deepEqual(
      folders.filter((f) => !places.includes(f)),
      [],
      'add a row to the layer table',
    );
    assert.deepEqual(
      places.filter((p, i) => places.indexOf(p) !== i),
      [],
      'a place has one row',
    );
    assert.deepEqual(
      places.filter((p) => !existsSync(join(ROOT, p))),
      [],
      'a row names a place that is gone',
    );
  });

  test('the real eslint.config.mjs runs the rule on app, components, lib and scripts', async () => {
    const real = new ESLint({ cwd: ROOT });
    for (const file of ['lib/store/sessions.ts', 'app/layout.tsx', 'components/panel.tsx', 'scripts/start.ts', 'proxy.ts']) {
      const config = await real.calculateConfigForFile(join(ROOT, file));
      assert.deepEqual(config.rules['layers/no-upward-import'], [2], file);
    }
  });

  test('a malformed table fails loudly rather than allowing everything', () => {
    assert.throws(() => parseLayerTable('# x\n\n## Layers\n\nno table\n\n## Next\n'), /no table/);
    assert.throws(
      () => parseLayerTable('## Layers\n\n| layer | where | may import |\n|---|---|---|\n| x | `lib/x/` | anything |\n'),
      /must be "below"/,
    );
  });

  test("README's layout table lists the lib/ folders in the layer table's order", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const listed = [...readme.matchAll(/^\| `(lib\/[^`]+\/)` \| ./gm)].map((m) => m[1]);
    const libPlaces = places.filter((p) => p.startsWith('lib/'));
    assert.deepEqual(listed, libPlaces);
  });
});
