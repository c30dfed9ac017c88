// The app as the tests that visit every page need it: something to show on each page (page-sweep.ts,
// plain-words.test.ts). The seeded sessions (fixtures.ts), alert rules evaluated often (the alerts page
// has a firing rule, the incidents page a row) and one event that fails the contract (the dead-letters
// page has a row; its payload column is the widest); and a browser.
import type { Browser } from 'playwright-core';
import { startAppServer, type AppServer } from '../support/app-server';
import { postEvents } from '../support/post-events';
import { SERVERS, launch, seed, serversEnv } from './fixtures';

export interface PopulatedApp {
  app: AppServer;
  browser: Browser;
  /** Closes the browser, then stops the app. */
  close: () => Promise<void>;
}

export async function startPopulatedApp(): Promise<PopulatedApp> {
  const [app, browser] = await Promise.all([
    startAppServer({ env: { DOORWATCH_SERVERS: serversEnv(), DOORWATCH_ALERT_INTERVAL_MS: '300' } }),
    launch(),
  ]);
  await seed(app.url);
  const refused = await postEvents(app.url, SERVERS.good.name, SERVERS.good.secret, [
    { id: 'ev-populated-bad', token: 'tok-populated-bad', type: 'not.a.type', at: new Date().toISOString() },
  ]);
  if (refused.status !== 207)
    throw new Error(`the dead letter was not refused with 207: ${refused.status} ${JSON.stringify(refused.body)}`);
  return {
    app,
    browser,
    close: async () => {
      await browser.close();
      await app.stop();
    },
  };
}
