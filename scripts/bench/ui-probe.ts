// The page side of bench:ui's cold loads (scripts/bench/ui.ts).

// Runs in the page before any of its scripts: records FCP and the first frame the selector shows.
export const PROBE = (selector: string, charts: boolean) => `
(() => {
  const mark = { fcp: null, content: null, charts: ${charts} ? null : -1 };
  window.__dwBench = mark;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.name === 'first-contentful-paint' && mark.fcp === null) mark.fcp = e.startTime;
  }).observe({ type: 'paint', buffered: true });
  const shown = () => {
    const el = document.querySelector(${JSON.stringify(selector)});
    if (!el) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  // A chart counts once drawn, by the server (plain SVG in a .chart-static box) or by Recharts; the
  // charts are all drawn when no box is left without its SVG (.chart-pending: builds before the
  // server-drawn charts).
  const chartsDrawn = () =>
    document.querySelector('.chart-static svg, .recharts-surface') !== null &&
    document.querySelector('.chart-pending') === null &&
    [...document.querySelectorAll('.chart-layers')].every((box) => box.querySelector('svg') !== null);
  const frame = () => {
    if (mark.content === null && shown()) mark.content = performance.now();
    if (mark.charts === null && chartsDrawn()) mark.charts = performance.now();
    if (mark.content === null || mark.charts === null) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})();`;
