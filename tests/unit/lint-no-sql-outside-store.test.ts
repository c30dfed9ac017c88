// doorwatch/no-sql-outside-store (scripts/lint/no-sql-outside-store.mjs): it fires on planted SQL,
// stays quiet on prose and on the app's own strings, and eslint.config.mjs turns it on exactly
// outside lib/store and lib/db.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ESLint, Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import rule from '../../scripts/lint/no-sql-outside-store.mjs';

const root = join(import.meta.dirname, '..', '..');

/** The rule's findings on one snippet, linted as a TypeScript file. */
function findings(code: string): string[] {
  const linter = new Linter({ configType: 'flat' });
  const messages = linter.verify(
    code,
    [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tseslint.parser as Linter.Parser },
        plugins: { doorwatch: { rules: { 'no-sql-outside-store': rule } } },
        rules: { 'doorwatch/no-sql-outside-store': 'error' },
      },
    ],
    { filename: 'lib/queries/planted.ts' },
  );
  for (const m of messages) assert.equal(m.ruleId, 'doorwatch/no-sql-outside-store', `unexpected: ${m.message}`);
  return messages.map((m) => m.message);
}

describe('doorwatch/no-sql-outside-store', () => {
  const planted: [string, string][] = [
    ['a SELECT in a template', 'const t = "Session"; export const q = `SELECT * FROM "${t}" WHERE "server" = ?`;'],
    ['a SELECT split over lines', 'export const q = `\n  SELECT MIN("at") AS "first"\n    FROM "Event"`;'],
    ['a bare SELECT', "export const q = 'SELECT 1 AS ok';"],
    ['an advisory lock', "export const q = 'SELECT pg_try_advisory_lock($1) AS ok';"],
    ['an INSERT', 'export const q = \'INSERT INTO "Rollup" ("server") VALUES (?)\';'],
    ['an UPDATE of an interpolated table', 'const t = "x"; export const q = `UPDATE ${t} SET "n" = 1`;'],
    ['a DELETE', 'export const q = \'DELETE FROM "Event" WHERE "at" < ?\';'],
    ['DDL', 'export const q = \'CREATE INDEX "e_at" ON "Event" ("at")\';'],
    ['a CTE', "export const q = 'WITH fresh AS (SELECT 1) SELECT 2';"],
    ['an upsert tail', "export const tail = 'ON CONFLICT DO NOTHING';"],
    ['a condition built apart', 'export const where = \' AND "server" = ?\';'],
    ['a condition on an interpolated column', 'const c = "a"; export const where = `"${c}" >= ?`;'],
    ['a NULL test', 'export const where = \'"deadlockEndedAt" IS NULL\';'],
    ['a LISTEN', 'const ch = "c"; export const q = `LISTEN ${ch}`;'],
  ];
  for (const [what, code] of planted) {
    test(`fires on ${what}`, () => {
      assert.equal(findings(code).length, 1, code);
    });
  }

  test('names the way out', () => {
    assert.match(findings('export const q = \'DELETE FROM "Event"\';')[0], /lib\/store/);
  });

  const quiet: [string, string][] = [
    ['prose with the words in lower case', "export const help = 'Select a server from the list, then update the settings';"],
    ['an HTML tag name', "export const isField = (tag: string) => tag === 'INPUT' || tag === 'SELECT';"],
    ['a log line that starts with LISTEN', "export const msg = 'LISTEN connection failed, retrying';"],
    ['SQL in a comment', '// SELECT * FROM "Session" WHERE "server" = ?\nexport const n = 1;'],
    ['a quoted word in a message', 'export const msg = `server "alpha" is already registered`;'],
  ];
  for (const [what, code] of quiet) {
    test(`is quiet on ${what}`, () => {
      assert.deepEqual(findings(code), []);
    });
  }

  test('eslint.config.mjs turns it on outside lib/store and lib/db only', async () => {
    const eslint = new ESLint({ cwd: root });
    const level = async (file: string) => {
      const config = await eslint.calculateConfigForFile(join(root, file));
      const setting = config?.rules?.['doorwatch/no-sql-outside-store'];
      return Array.isArray(setting) ? setting[0] : setting;
    };
    for (const file of [
      'lib/queries/stats.ts',
      'app/api/v1/stats/route.ts',
      'components/shell/shortcuts.tsx',
      'lib/health/check-health.ts',
    ]) {
      assert.equal(await level(file), 2, file);
    }
    for (const file of ['lib/store/sessions.ts', 'lib/db/sql.ts', 'tests/unit/queries-db.test.ts', 'scripts/bench/seed.ts']) {
      assert.ok(!(await level(file)), file);
    }
  });
});
