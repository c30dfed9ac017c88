// A/B of first content: two production builds (each a checkout with `npm run build` done) served
// side by side from fresh SQLite databases with the same seed, cold loads alternated so machine load
// hits both alike. Used for the layout change in docs/benchmarks.md.
//   npx tsx scripts/bench/ui-ab.ts --dirs /tmp/app-before,/tmp/app-after --runs 10 [--pages overview,session,sessions,servers]
import { launch } from '../../tests/browser/fixtures';
import { ADMIN_TOKEN, latencySummary, parseArgs, prepareDatabase, startApp, tempSqliteUrl } from './common';
import { SERVERS, seedDemo } from './ui';
import { loadavg } from 'node:os';

const PROBE = (selector: string) => `(() => { const m = { fcp: null, content: null }; window.__b = m;
  new PerformanceObserver((l) => { for (const e of l.getEntries()) if (e.name === 'first-contentful-paint' && m.fcp === null) m.fcp = e.startTime; }).observe({ type: 'paint', buffered: true });
  const f = () => { if (m.content !== null) return; const el = document.querySelector(${JSON.stringify(selector)}); if (el) { const r = el.getBoundingClientRect(); if (r.width > 0 && r.height > 0) { m.content = performance.now(); return; } } requestAnimationFrame(f); }; requestAnimationFrame(f); })();`;

async function main() {
  const { flags } = parseArgs(process.argv.slice(2));
  const dirs = (flags.get('dirs') ?? '/tmp/app-before,/tmp/app-after').split(',');
  const runs = Number(flags.get('runs') ?? 10);
  const apps = [];
  for (const dir of dirs) {
    process.env.BENCH_APP_DIR = dir;
    const db = tempSqliteUrl();
    await prepareDatabase(db.url, SERVERS);
    const app = await startApp(db.url, { DOORWATCH_RETENTION_DAYS: '0' });
    const seeded = await seedDemo(app.url, Date.now());
    const login = await fetch(`${app.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: app.url },
      body: JSON.stringify({ token: ADMIN_TOKEN }),
    });
    const m = /^([^=]+)=([^;]*)/.exec(login.headers.get('set-cookie') ?? '')!;
    apps.push({ dir, app, seeded, cookie: { name: m[1], value: m[2] } });
  }
  const browser = await launch();
  const all = [
    { name: 'overview', path: () => '/', sel: '[data-testid="tile-sessions"]' },
    { name: 'session', path: (s: any) => `/servers/${s.detail.server}/sessions/${s.detail.token}`, sel: '[data-testid="callout-outcome"]' },
    { name: 'sessions', path: () => '/sessions', sel: '[data-testid="session-row"]' },
    { name: 'servers', path: () => '/servers', sel: '[data-testid^="server-row-"]' },
  ];
  const wanted = (flags.get('pages') ?? 'overview,session').split(',');
  const pages = all.filter((p) => wanted.includes(p.name));
  const res: Record<string, { fc: number[]; fcp: number[] }> = {};
  const load0 = loadavg()[0];
  for (let i = -1; i < runs; i++)
    for (const p of pages)
      for (const a of i % 2 === 0 ? apps : [...apps].reverse()) {
        const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, timezoneId: 'UTC' });
        await ctx.addCookies([{ ...a.cookie, url: a.app.url }]);
        const page = await ctx.newPage();
        await page.addInitScript({ content: PROBE(p.sel) });
        await page.goto(a.app.url + p.path(a.seeded), { waitUntil: 'load' });
        await page.waitForFunction(() => (window as any).__b.content !== null && (window as any).__b.fcp !== null);
        const m = await page.evaluate(() => (window as any).__b);
        await ctx.close();
        if (i < 0) continue;
        const k = `${p.name} ${a.dir}`;
        res[k] ??= { fc: [], fcp: [] };
        res[k].fc.push(Math.max(m.content, m.fcp));
        res[k].fcp.push(m.fcp);
      }
  for (const [k, v] of Object.entries(res))
    console.log(k, 'firstContent', JSON.stringify(latencySummary(v.fc)), 'fcp p50', latencySummary(v.fcp).p50);
  console.log('load before', load0, 'after', loadavg()[0]);
  await browser.close();
  for (const a of apps) await (a.app as any).stop?.();
  process.exit(0);
}
main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
