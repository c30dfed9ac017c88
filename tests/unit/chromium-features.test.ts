// The browser tests' --disable-features switch replaces Playwright's (Chromium honours the last one), so it
// must carry every feature the installed playwright-core disables (tests/browser/chromium-features.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { disableFeaturesSwitch } from '../browser/chromium-features';

/** The `disabledFeatures = [...]` list of playwright-core's chromiumSwitches, as the installed bundle has it. */
function playwrightDisabledFeatures(): string[] {
  const root = dirname(createRequire(__filename).resolve('playwright-core/package.json'));
  const bundle = readFileSync(join(root, 'lib', 'coreBundle.js'), 'utf8');
  const list = /disabledFeatures = \[([\s\S]*?)\]\.filter\(Boolean\)/.exec(bundle);
  assert.ok(list, "playwright-core's chromiumSwitches no longer has a disabledFeatures list: check how it disables features");
  return [...list[1].matchAll(/^\s*"([^"]+)"/gm)].map((m) => m[1]);
}

test("the browser tests' --disable-features keeps every feature playwright-core disables", () => {
  const theirs = playwrightDisabledFeatures();
  assert.ok(theirs.length >= 10, `read only ${theirs.length} features from playwright-core`);
  const ours = disableFeaturesSwitch().replace('--disable-features=', '').split(',');
  assert.deepEqual(
    theirs.filter((f) => !ours.includes(f)),
    [],
    'add these to PLAYWRIGHT_DISABLED_FEATURES (tests/browser/chromium-features.ts)',
  );
});
