// The browser the tests launch (fixtures.ts) opens each context's window without the omnibox popup's
// WebUI preloaded (tests/browser/chromium-features.ts): ~2.5 s of Chromium CPU per context otherwise.
// Fails when a Chromium upgrade preloads it under another feature's name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch } from './fixtures';

test('a context opens with no browser UI preloaded beside its page', async () => {
  const browser = await launch();
  try {
    const context = await browser.newContext();
    await context.newPage();
    // The window, and with it the preload, exists before newPage() resolves: without the switch both popup
    // targets are listed at once (checked 5 Dec 2026), so no wait is needed for this absence to mean something.
    const cdp = await browser.newBrowserCDPSession();
    const { targetInfos } = await cdp.send('Target.getTargets');
    assert.deepEqual(
      targetInfos.filter((t) => t.type !== 'page').map((t) => `${t.type} ${t.url}`),
      [],
    );
  } finally {
    await browser.close();
  }
});
