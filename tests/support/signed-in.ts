// A browser page signed in as the bootstrap admin through the login form, as a person signs in;
// shared by the browser test files.
import type { BrowserContext, Page } from 'playwright-core';
import { TEST_ADMIN_TOKEN } from './app-server';

/** Signs `page` in with the bootstrap admin token through the login form; resolves on the overview. */
export async function signIn(page: Page, baseUrl: string): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.fill('[data-testid="login-token"]', TEST_ADMIN_TOKEN);
  await page.click('[data-testid="login-submit"]');
  await page.waitForURL((u) => u.pathname === '/');
}

/** A new page of `context`, signed in to `baseUrl`; its console errors and page errors go to `errors` when given. */
export async function signedIn(context: BrowserContext, baseUrl: string, errors?: string[]): Promise<Page> {
  const page = await context.newPage();
  if (errors) {
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`${new URL(page.url()).pathname}: ${m.text()}`);
    });
    page.on('pageerror', (e) => errors.push(`${new URL(page.url()).pathname}: ${String(e)}`));
  }
  await signIn(page, baseUrl);
  return page;
}
