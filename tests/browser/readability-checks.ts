// What the readability checks look for on any page (issue 27): axe-core's WCAG AA colour contrast and a
// few cheap naming rules (buttons, links, form fields), SVG text and text on a gradient (which axe does not
// judge: the stale page's hatching) at the same 4.5:1, and no two words run together where a space was lost (a JSX line break, or a space at the edge
// of a flex item, which flex layout drops). Used by the every-page sweep (page-sweep.ts).
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';

const AXE_RULES = ['color-contrast', 'button-name', 'link-name', 'label', 'select-name', 'input-button-name', 'aria-valid-attr-value'];

/** axe's violations on the page, one line per element. */
async function axeProblems(page: Page): Promise<string[]> {
  // Legacy mode runs axe in the page itself; the default opens a blank page per analyze to finish the run,
  // which only cross-origin frames need (the app has none). Recharts' SVG surfaces are excluded: thousands
  // of nodes none of these rules judge (axe skips SVG text, SVG_TEXT_CONTRAST below reads it; the charts
  // hold no controls). Together: axe 3-15 s → ~1 s a page at load 8-16, measured in the sweep.
  const result = await new AxeBuilder({ page }).setLegacyMode().exclude('.recharts-surface').withRules(AXE_RULES).analyze();
  return result.violations.flatMap((v) =>
    v.nodes.map((n) => `${v.id}: ${n.target.join(' ')} — ${n.failureSummary?.split('\n').slice(1).join(' ').trim() ?? ''}`),
  );
}

// The checks below run in the page; strings, not functions, because the test's transpiler wraps nested
// named functions in a helper the page lacks.

/** SVG text below 4.5:1 against the panel behind it (axe skips SVG text; the timeline's notes are SVG). */
const SVG_TEXT_CONTRAST = `(() => {
  const rgb = (s) => { const m = s.match(/[\\d.]+/g) || []; return m.slice(0, 4).map(Number); };
  const lum = ([r, g, b]) => { const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4); }; return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const behind = (el) => { for (let e = el; e; e = e.parentElement) { const c = rgb(getComputedStyle(e).backgroundColor); if (c.length === 3 || c[3] > 0.99) return c.slice(0, 3); } return [255, 255, 255]; };
  const out = [];
  for (const t of document.querySelectorAll('svg text')) {
    const text = (t.textContent || '').trim();
    const cs = getComputedStyle(t);
    if (!text || cs.visibility === 'hidden' || cs.display === 'none' || t.getBoundingClientRect().width === 0) continue;
    if (!/^rgb/.test(cs.fill)) continue;
    const fill = rgb(cs.fill);
    if (fill.length === 4 && fill[3] < 0.99) continue;
    const size = parseFloat(cs.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(cs.fontWeight) >= 700);
    const r = ratio(fill.slice(0, 3), behind(t.parentElement));
    if (r < (large ? 3 : 4.5) - 0.005) out.push('"' + text + '" ' + cs.fill + ' at ' + size + ' px: ' + r.toFixed(2) + ':1');
  }
  return [...new Set(out)];
})()`;

/**
 * Text on a gradient below 4.5:1 against any of its colours (axe leaves text on a background image
 * unjudged): the stale page hatches its panels (app/globals.css, main[data-stale]), and a glyph may sit
 * on a stripe. Each stop is laid over the solid colour behind the gradient.
 */
const GRADIENT_TEXT_CONTRAST = `(() => {
  const rgb = (s) => { const m = s.match(/[\\d.]+/g) || []; return m.slice(0, 4).map(Number); };
  const lum = ([r, g, b]) => { const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4); }; return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const over = (top, base) => { const a = top.length === 4 ? top[3] : 1; return [0, 1, 2].map((i) => top[i] * a + base[i] * (1 - a)); };
  const solid = (el) => { for (let e = el; e; e = e.parentElement) { const c = rgb(getComputedStyle(e).backgroundColor); if (c.length === 3 || c[3] > 0.99) return c.slice(0, 3); } return [255, 255, 255]; };
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    const text = (n.textContent || '').trim();
    // Disabled controls are exempt, as in axe (WCAG 1.4.3: inactive components).
    if (!text || !el || el.closest('script, style, svg, :disabled, [aria-disabled="true"]')) continue;
    const cs = getComputedStyle(el);
    if (cs.visibility === 'hidden' || el.getClientRects().length === 0) continue;
    // The nearest background: a gradient, or a solid colour that hides any gradient further out.
    let grad = null;
    for (let e = el; e && !grad; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (/gradient\\(/.test(s.backgroundImage)) grad = e;
      else { const c = rgb(s.backgroundColor); if (c.length === 3 || c[3] > 0.99) break; }
    }
    if (!grad) continue;
    const base = solid(grad);
    const stops = (getComputedStyle(grad).backgroundImage.match(/rgba?\\([^)]*\\)/g) || []).map((c) => over(rgb(c), base));
    const color = over(rgb(cs.color), base);
    const size = parseFloat(cs.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(cs.fontWeight) >= 700);
    const worst = Math.min(ratio(color, base), ...stops.map((s) => ratio(color, s)));
    if (worst < (large ? 3 : 4.5) - 0.005) out.push('"' + text.slice(0, 40) + '" ' + cs.color + ' at ' + size + ' px: ' + worst.toFixed(2) + ':1');
  }
  return [...new Set(out)];
})()`;

/**
 * Words run together: a text node ending in . , ; : ! ? right before an element that starts with a letter
 * or digit ("incomplete.<strong>Rejected</strong>"); and in a flex or grid container without a gap (a
 * chip), a space at the edge of a run of text next to an element, or a lone space between two elements,
 * which the layout drops ("since" + <time>45 s ago</time>).
 */
const JOINED_WORDS = `(() => {
  const out = [];
  const words = (n) => (n && n.nodeType === 1 ? (n.textContent || '').trim() : '');
  const around = (el) => (el.textContent || '').replace(/\\s+/g, ' ').trim().slice(0, 80);
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n.textContent || '';
    if (!text.trim() || !n.parentElement || n.parentElement.closest('script, style, svg')) continue;
    const next = words(n.nextSibling);
    if (/[.,;:!?]$/.test(text) && /^[A-Za-z0-9]/.test(next))
      out.push('"' + text.trim().slice(-20) + '" + "' + next.slice(0, 20) + '" in "' + around(n.parentElement) + '"');
  }
  for (const el of document.body.querySelectorAll('*')) {
    if (el.closest('svg')) continue;
    const cs = getComputedStyle(el);
    if (!/flex|grid/.test(cs.display) || parseFloat(cs.columnGap) > 0) continue;
    const kids = [...el.childNodes].filter((k) => k.nodeType === 1 || k.nodeType === 3);
    let run = '';
    let before = null;
    for (let i = 0; i <= kids.length; i++) {
      const k = kids[i];
      if (k && k.nodeType === 3) { run += k.textContent; continue; }
      const lost = run.trim()
        ? (/^\\s/.test(run) && words(before)) || (/\\s$/.test(run) && words(k))
        : run && words(before) && words(k);
      if (lost) out.push('a flex layout drops a space in "' + around(el) + '"');
      run = '';
      before = k;
    }
  }
  return [...new Set(out)];
})()`;

/** Every readability problem the page shows now, one line each (an empty list when none). */
export async function readabilityProblems(page: Page): Promise<string[]> {
  return [
    ...(await axeProblems(page)),
    ...(await page.evaluate<string[]>(SVG_TEXT_CONTRAST)).map((x) => `svg text ${x}`),
    ...(await page.evaluate<string[]>(GRADIENT_TEXT_CONTRAST)).map((x) => `text on a gradient ${x}`),
    ...(await page.evaluate<string[]>(JOINED_WORDS)),
  ];
}
