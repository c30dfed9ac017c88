// The overview's time-series panels share one time axis (issue 13): the same tick labels at the
// same x in every chart, the same plot area (so a bucket's bar sits at the same x in each panel),
// at 1440 and 390 px, light and dark, and split by server; the renegotiation rate reads on its own
// percentage scale. The chart the server drew (components/charts/static-chart.tsx, kept hidden under
// the interactive one) has the same labels and bars at the same places, so nothing moves when Recharts
// takes over. Screenshots land in test-output/screenshots/axis-* for a person to look at.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startAppServer, type AppServer } from '../support/app-server';
import { launch, seed, serversEnv, shot, signIn } from './fixtures';

let app: AppServer;
let browser: Browser;

const TIME_CHARTS = [
  'chart-boundary',
  'chart-deadlocks',
  'chart-refusal-percentiles',
  'chart-renegotiations',
  'chart-renegotiation-percentiles',
];

interface ChartAxis {
  id: string;
  labels: string[];
  /** Tick label centres, relative to the chart's left edge. */
  xs: number[];
  /** The plot area (grid) relative to the chart's left edge. */
  plot: { left: number; width: number };
}

/** Each drawn time-series chart's x-axis labels and positions. */
function readAxes(page: Page): Promise<ChartAxis[]> {
  return page.evaluate((ids) => {
    const out: ChartAxis[] = [];
    for (const id of ids) {
      const chart = document.querySelector(`[data-testid="${id}"]`);
      if (!chart) continue;
      const left = chart.getBoundingClientRect().left;
      const ticks = [...chart.querySelectorAll('.recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value')];
      const grid = chart.querySelector('.recharts-cartesian-grid')!.getBoundingClientRect();
      out.push({
        id,
        labels: ticks.map((t) => t.textContent ?? ''),
        xs: ticks.map((t) => {
          const r = t.getBoundingClientRect();
          return r.left + r.width / 2 - left;
        }),
        plot: { left: grid.left - left, width: grid.width },
      });
    }
    return out;
  }, TIME_CHARTS);
}

async function overview(width: number, scheme: 'light' | 'dark', query: string, name: string) {
  const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: scheme, timezoneId: 'UTC' });
  const page = await context.newPage();
  await signIn(page, app.url);
  await page.goto(`${app.url}/?from=now-1h&to=now${query}`);
  for (const id of ['chart-boundary', 'chart-deadlocks', 'chart-renegotiations'])
    await page.locator(`[data-testid="${id}"] .recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value`).first().waitFor();
  await page.screenshot({ path: shot(`axis-${name}`), fullPage: true });
  return { page, context };
}

interface Drawn {
  /** Tick labels: text, centre x, centre y, relative to the chart box. */
  x: [string, number, number][];
  left: [string, number, number][];
  right: [string, number, number][];
  /** Bars with a height: left, top, width, height. */
  bars: number[][];
}

// Page source as text: tsx would wrap the helpers' names (`__name`), which the page does not have.
const READ_DRAWN = `((ids) => {
  const label = (box, t) => {
    const r = t.getBoundingClientRect();
    return [t.textContent || '', Math.round(r.left + r.width / 2 - box.left), Math.round(r.top + r.height / 2 - box.top)];
  };
  const bars = (box, els) =>
    els
      .map((e) => e.getBoundingClientRect())
      .filter((r) => r.height > 0.5)
      .map((r) => [r.left - box.left, r.top - box.top, r.width, r.height].map((v) => Math.round(v)))
      .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return ids.flatMap((id) => {
    const chart = document.querySelector('[data-testid="' + id + '"]');
    const frame = chart && chart.parentElement && chart.parentElement.querySelector(':scope > .chart-static');
    if (!chart || !frame) return [];
    const box = chart.getBoundingClientRect();
    const mid = box.left + box.width / 2;
    const yTicks = [...chart.querySelectorAll('.recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value')];
    const plot = frame.querySelector('svg.cs-plot').getBoundingClientRect();
    const texts = [...frame.querySelectorAll('text.cs-text')];
    return [{
      id,
      recharts: {
        x: [...chart.querySelectorAll('.recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value')].map((t) => label(box, t)),
        left: yTicks.filter((t) => t.getBoundingClientRect().left < mid).map((t) => label(box, t)),
        right: yTicks.filter((t) => t.getBoundingClientRect().left >= mid).map((t) => label(box, t)),
        bars: bars(box, [...chart.querySelectorAll('.recharts-bar-rectangle path')]),
      },
      server: {
        x: texts.filter((t) => t.getBoundingClientRect().top >= plot.bottom).map((t) => label(box, t)),
        left: texts.filter((t) => t.getBoundingClientRect().top < plot.bottom && !t.classList.contains('cs-inside')).map((t) => label(box, t)),
        right: texts.filter((t) => t.classList.contains('cs-inside')).map((t) => label(box, t)),
        bars: bars(box, [...frame.querySelectorAll('rect.cs-bar')]),
      },
    }];
  });
})`;

/** Per time-series chart, what Recharts drew and what the server drew under it. */
function readDrawn(page: Page): Promise<{ id: string; recharts: Drawn; server: Drawn }[]> {
  return page.evaluate(`${READ_DRAWN}(${JSON.stringify(TIME_CHARTS)})`);
}

/** The same texts, each within 1.5 px of its place. */
function assertSame(where: string, a: [string, number, number][] | number[][], b: [string, number, number][] | number[][]) {
  assert.equal(a.length, b.length, `${where}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
  a.forEach((p, i) =>
    p.forEach((v, j) => {
      const w = b[i][j];
      const ok = typeof v === 'string' ? v === w : Math.abs(v - (w as number)) <= 1.5;
      assert.ok(ok, `${where}: ${JSON.stringify(p)} vs ${JSON.stringify(b[i])}`);
    }),
  );
}

function assertShared(axes: ChartAxis[], where: string) {
  assert.ok(axes.length >= 4, `${where}: at least four time-series charts drawn (${axes.map((a) => a.id)})`);
  const [first, ...rest] = axes;
  assert.ok(first.labels.length >= 2, `${where}: ${first.id} has tick labels (${first.labels})`);
  for (const a of rest) {
    assert.deepEqual(a.labels, first.labels, `${where}: ${a.id}'s tick labels are ${first.id}'s`);
    a.xs.forEach((x, i) =>
      assert.ok(Math.abs(x - first.xs[i]) <= 1, `${where}: ${a.id} tick ${a.labels[i]} at ${x}, ${first.id} at ${first.xs[i]}`),
    );
    assert.ok(
      Math.abs(a.plot.left - first.plot.left) <= 1,
      `${where}: ${a.id}'s plot starts at ${a.plot.left}, ${first.id}'s at ${first.plot.left}`,
    );
    assert.ok(
      Math.abs(a.plot.width - first.plot.width) <= 1,
      `${where}: ${a.id}'s plot is ${a.plot.width} wide, ${first.id}'s ${first.plot.width}`,
    );
  }
  // Labels never overlap within a chart.
  const sorted = [...first.xs].sort((p, q) => p - q);
  for (let i = 1; i < sorted.length; i++)
    assert.ok(sorted[i] - sorted[i - 1] >= 36, `${where}: tick labels ${sorted[i - 1]} and ${sorted[i]} too close`);
}

describe('overview time axis', () => {
  before(async () => {
    [app, browser] = await Promise.all([startAppServer({ env: { DOORWATCH_SERVERS: serversEnv() } }), launch()]);
    await seed(app.url);
  });

  after(async () => {
    await browser?.close();
    await app?.stop();
  });

  const cases: [number, 'light' | 'dark', string, string][] = [
    [1440, 'light', '', '1440-light'],
    [390, 'light', '', '390-light'],
    [1440, 'light', '&split=server', '1440-light-split'],
    [390, 'light', '&split=server', '390-light-split'],
    [1920, 'dark', '', '1920-dark'],
    [1280, 'dark', '&split=server', '1280-dark-split'],
  ];
  for (const [width, scheme, query, name] of cases) {
    test(`every time-series panel shares one time axis at ${name}`, async () => {
      const { page, context } = await overview(width, scheme, query, name);
      try {
        assertShared(await readAxes(page), name);
        const drawn = await readDrawn(page);
        assert.ok(drawn.length >= 4, `${name}: the server-drawn charts are under the interactive ones`);
        for (const { id, recharts, server } of drawn)
          for (const part of ['x', 'left', 'right', 'bars'] as const) assertSame(`${name} ${id} ${part}`, server[part], recharts[part]);
      } finally {
        await context.close();
      }
    });
  }

  test('the renegotiation rate reads on its own percentage axis, its largest value in the upper part of the plot', async () => {
    const { page, context } = await overview(1440, 'light', '', 'rate');
    try {
      const chart = page.locator('[data-testid="chart-renegotiations"]');
      await chart.locator('.recharts-line-dots circle, .recharts-line-dot').first().waitFor();
      const r = await chart.evaluate((el) => {
        const right = [...el.querySelectorAll('.recharts-yAxis-tick-labels')].find(
          (a) =>
            a.querySelector('.recharts-cartesian-axis-tick-value') &&
            a.getBoundingClientRect().left > el.getBoundingClientRect().left + el.getBoundingClientRect().width / 2,
        );
        const labels = right ? [...right.querySelectorAll('.recharts-cartesian-axis-tick-value')].map((t) => t.textContent ?? '') : [];
        const grid = el.querySelector('.recharts-cartesian-grid')!.getBoundingClientRect();
        const dots = [...el.querySelectorAll('.recharts-line-dots circle, .recharts-line-dot')].map((d) => d.getBoundingClientRect());
        const top = Math.min(...dots.map((d) => d.top + d.height / 2));
        return { labels, gridTop: grid.top, gridHeight: grid.height, top };
      });
      assert.ok(r.labels.length >= 3, `rate axis ticks: ${r.labels}`);
      assert.ok(
        r.labels.every((l) => /^\d+(\.\d)?%$/.test(l)),
        `rate ticks are percentages: ${r.labels}`,
      );
      assert.equal(new Set(r.labels).size, r.labels.length, `rate ticks are distinct: ${r.labels}`);
      assert.ok(
        r.top - r.gridTop <= r.gridHeight * 0.45,
        `highest rate point ${r.top - r.gridTop} px below the top of a ${r.gridHeight} px plot`,
      );
    } finally {
      await context.close();
    }
  });
});
