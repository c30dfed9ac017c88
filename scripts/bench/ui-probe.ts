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
  const chartsDrawn = () => document.querySelector('.recharts-surface') !== null && document.querySelector('.chart-pending') === null;
  const frame = () => {
    if (mark.content === null && shown()) mark.content = performance.now();
    if (mark.charts === null && chartsDrawn()) mark.charts = performance.now();
    if (mark.content === null || mark.charts === null) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})();`;
