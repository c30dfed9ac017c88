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
    const cdp = await browser.newBrowserCDPSession();
    // The preload starts as the window opens; give it the time it took when it ran (well under a second).
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const { targetInfos } = await cdp.send('Target.getTargets');
    assert.deepEqual(
      targetInfos.filter((t) => t.type !== 'page').map((t) => `${t.type} ${t.url}`),
      [],
    );
  } finally {
    await browser.close();
  }
});
