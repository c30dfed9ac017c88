// The README's layout table stays true: every folder of lib/ has a row saying what it holds.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

const root = new URL('../../', import.meta.url);

test('every lib/ folder is listed in the README layout table', () => {
  const readme = readFileSync(new URL('README.md', root), 'utf8');
  const listed = [...readme.matchAll(/^\| `([^`]+)\/` \| ./gm)].map((m) => m[1]);
  const rows = new Set(listed);
  assert.deepEqual(
    listed.filter((p, i) => listed.indexOf(p) !== i),
    [],
    'a folder has one row',
  );
  assert.ok(rows.has('app') && rows.has('public'), 'the layout table is where this test expects it');
  const folders = readdirSync(new URL('lib/', root), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => `lib/${e.name}`);
  assert.ok(folders.length > 10);
  assert.deepEqual(
    folders.filter((f) => !rows.has(f)),
    [],
    'add a row to the layout table in README.md',
  );
});
