// What the layout tests look for on any page, in general terms rather than per component: text cut
// by its own box without an ellipsis and a title, a table column out of view with no cue that more
// exists, a panel head on more than one line, a chart's empty right gutter, inline code made a line of
// its own, a hyphenated name broken across lines, panels touching or a control on a panel's edge, top
// bar controls drawn over one another, (on a phone) the top bar's rows, and (on a desktop) a range
// label cut before the token lookup gave way.
import type { Page } from 'playwright-core';

// The checks run in the page as a string: the test's transpiler would wrap nested named functions
// in a helper the page lacks.
const PAGE_CHECKS = `(({ headsOneLine }) => {
  const out = [];
  const visible = (el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
  };
  const name = (el) => (el.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 40);
  /** The distinct line tops of an element's text (a wrap adds one). */
  const lines = (el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    const tops = [];
    for (const r of range.getClientRects()) {
      if (r.width < 1) continue;
      if (!tops.some((t) => Math.abs(t - r.top) < 10)) tops.push(r.top);
    }
    return tops.length;
  };

  // 1. Text cut by its own box: allowed only as an ellipsis with the whole text in a title.
  for (const el of document.querySelectorAll('table.data th, table.data td, .panel-head h2, .panel-head .aside, .chip, .btn, .tile-label, .trp-label')) {
    if (!visible(el) || el.scrollWidth <= el.clientWidth + 1) continue;
    const cs = getComputedStyle(el);
    if (cs.overflowX === 'visible' && cs.overflow === 'visible') continue;
    const titled = el.closest('[title]');
    if (cs.textOverflow === 'ellipsis' && titled) continue;
    out.push('clipped text "' + name(el) + '" (' + el.scrollWidth + ' px in ' + el.clientWidth + ')');
  }

  // 2. A table column out of view (past the scroll box's edge, or not displayed) needs a visible cue.
  for (const wrap of document.querySelectorAll('.table-wrap')) {
    if (!visible(wrap)) continue;
    const box = wrap.getBoundingClientRect();
    const heads = [...wrap.querySelectorAll('thead th')];
    const hidden = heads.filter((th) => getComputedStyle(th).display === 'none' || th.getBoundingClientRect().right > box.right + 1);
    if (hidden.length === 0) continue;
    const cue = wrap.parentElement && wrap.parentElement.querySelector('[data-testid="table-more"]');
    if (!cue || !visible(cue))
      out.push('table ' + (wrap.querySelector('table').dataset.testid || '') + ': ' + hidden.map(name).join(', ') + ' out of view, no cue');
  }

  // 3. A panel head is one line (neighbouring panels' bodies start level).
  if (headsOneLine)
    for (const head of document.querySelectorAll('.panel-head')) {
      if (!visible(head)) continue;
      const kids = [...head.children].filter(visible);
      const rects = kids.map((k) => k.getBoundingClientRect());
      const oneRow = rects.length === 0 || Math.max(...rects.map((r) => r.top)) < Math.min(...rects.map((r) => r.bottom));
      const wrapped = kids.filter((k) => lines(k) > 1);
      if (!oneRow || wrapped.length)
        out.push('panel head "' + name(head) + '" on more than one line' + (wrapped.length ? ' (' + wrapped.map(name).join(', ') + ' wraps)' : ''));
    }

  // 4. A chart's plot reaches its right edge unless a right axis' labels stand in the room.
  for (const chart of document.querySelectorAll('.chart')) {
    const svg = chart.querySelector('svg.recharts-surface');
    const grid = chart.querySelector('.recharts-cartesian-grid');
    if (!svg || !grid || !visible(svg)) continue;
    const plotRight = grid.getBoundingClientRect().right;
    const gutter = svg.getBoundingClientRect().right - plotRight;
    const used = [...chart.querySelectorAll('.recharts-yAxis-tick-labels text')].some((t) => t.getBoundingClientRect().left >= plotRight - 1);
    if (gutter > 20 && !used) out.push('chart ' + chart.dataset.testid + ': ' + Math.round(gutter) + ' px empty right gutter');
  }

  // 5. Inline code in running text: a flex parent makes it a line (or block) of its own.
  for (const code of document.querySelectorAll('code')) {
    const parent = code.parentElement;
    if (!parent || !visible(code) || !getComputedStyle(parent).display.includes('flex')) continue;
    if ([...parent.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()))
      out.push('inline code "' + name(code) + '" is a flex item of its sentence');
  }

  // 6. A hyphenated name (a server, a token) in an alarm is never broken across lines.
  for (const box of document.querySelectorAll('.alarm-text')) {
    const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      for (const m of n.textContent.matchAll(/\\S+-\\S+/g)) {
        const range = document.createRange();
        range.setStart(n, m.index);
        range.setEnd(n, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (tops.size > 1) out.push('"' + m[0] + '" broken across lines in the alarm');
      }
    }
  }

  // 7. Panels stand apart, and a panel's controls sit inside its padding: two stacked panels with no gap
  // read as one box, and a button on a panel's border looks cut off (the incident page had both).
  const panels = [...document.querySelectorAll('.panel')].filter(visible);
  for (const a of panels)
    for (const b of panels) {
      if (a === b || a.contains(b) || b.contains(a)) continue;
      const ra = a.getBoundingClientRect(), rb = b.getBoundingClientRect();
      const sideBySide = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left) <= 0;
      if (!sideBySide && rb.top >= ra.top && rb.top - ra.bottom < 4)
        out.push('panels "' + name(a.querySelector('.panel-head') || a) + '" and "' + name(b.querySelector('.panel-head') || b) + '" touch (' + Math.round(rb.top - ra.bottom) + ' px apart)');
    }
  for (const panel of panels) {
    const box = panel.getBoundingClientRect();
    for (const el of panel.querySelectorAll('button, input:not([type="hidden"]), select, textarea, a.btn')) {
      // (a table's "more columns" cue sits on its scroll box's edge by design)
      if (!visible(el) || el.closest('.table-wrap, .panel-head, [data-testid="table-more"]')) continue;
      const r = el.getBoundingClientRect();
      if (r.left - box.left < 4 || box.right - r.right < 4)
        out.push('"' + (name(el) || el.getAttribute('aria-label') || el.tagName.toLowerCase()) + '" on the edge of panel "' + name(panel.querySelector('.panel-head') || panel) + '"');
    }
  }

  // 8. The top bar's controls never sit on one another (a toolbar squeezed below its content draws its
  // buttons over its neighbours: the range's › over the live state, "offline · as of …" over the range).
  // Each control's box as shown: cut by any scrolling or clipping ancestor (the phone's sections scroll
  // sideways in their row, so a link past its edge is hidden, not under "⋯").
  const shown = (el) => {
    const r = el.getBoundingClientRect();
    let left = r.left, right = r.right, top = r.top, bottom = r.bottom;
    for (let a = el.parentElement; a && !a.classList.contains('topbar'); a = a.parentElement) {
      const cs = getComputedStyle(a);
      if (cs.overflowX === 'visible' && cs.overflowY === 'visible') continue;
      const b = a.getBoundingClientRect();
      left = Math.max(left, b.left); right = Math.min(right, b.right); top = Math.max(top, b.top); bottom = Math.min(bottom, b.bottom);
    }
    return { left, right, top, bottom };
  };
  const controls = [...document.querySelectorAll('.topbar a, .topbar button, .topbar select, .topbar input, .topbar .data-age, .topbar .refresh-dot')]
    .filter((el) => visible(el) && !el.closest('.term-tip'))
    .map((el) => ({ el, r: shown(el) }))
    .filter(({ r }) => r.right - r.left > 1 && r.bottom - r.top > 1);
  for (let i = 0; i < controls.length; i++)
    for (let j = i + 1; j < controls.length; j++) {
      const a = controls[i], b = controls[j];
      if (a.el.contains(b.el) || b.el.contains(a.el)) continue;
      const w = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
      const h = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
      if (w > 1 && h > 1) out.push('top bar: "' + (name(a.el) || a.el.className) + '" and "' + (name(b.el) || b.el.className) + '" overlap by ' + Math.round(w) + ' px');
    }
  return out;
})`;

/** Every layout problem the page shows now (an empty list when none). */
export function layoutProblems(page: Page, opts: { headsOneLine: boolean }): Promise<string[]> {
  return page.evaluate(`${PAGE_CHECKS}(${JSON.stringify(opts)})`);
}

/**
 * The layout problems once the page has settled: the table cues appear after the tables are measured,
 * so a problem counts only if it is still there after polling for a clean page (frame by frame, up to
 * 3 s: the page's CSP forbids waitForFunction's string evaluation).
 */
export async function settledLayoutProblems(page: Page, opts: { headsOneLine: boolean }): Promise<string[]> {
  const until = Date.now() + 3000;
  for (;;) {
    const problems = await layoutProblems(page, opts);
    if (problems.length === 0 || Date.now() > until) return problems;
    await page.evaluate('new Promise((done) => requestAnimationFrame(() => done(null)))');
  }
}

/** The outermost elements reaching past the right edge (what makes a page scroll sideways). */
export const culpritsPast = (page: Page, width: number): Promise<string[]> =>
  page.evaluate(`(() => {
    const out = [];
    const walk = (el) => {
      if (el.getBoundingClientRect().right > ${width} + 0.5) {
        out.push(el.tagName.toLowerCase() + '.' + [...el.classList].join('.'));
        return;
      }
      if (getComputedStyle(el).overflowX === 'visible') for (const c of el.children) walk(c);
    };
    walk(document.body);
    return out.slice(0, 5);
  })()`);

/** The top bar's rows: its laid-out items (the toolbar's own when it is display: contents), grouped by line. */
export const topBarRows = (page: Page): Promise<number> =>
  page.evaluate(`(() => {
    const items = [];
    const add = (el) => {
      const cs = getComputedStyle(el);
      if (cs.display === 'contents') return [...el.children].forEach(add);
      if (cs.display === 'none' || cs.position === 'absolute' || el.classList.contains('skip-link')) return;
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.height > 0) items.push(r);
    };
    [...document.querySelector('header.topbar').children].forEach(add);
    const rows = [];
    for (const r of items) if (!rows.some((row) => r.top < row.bottom && row.top < r.bottom)) rows.push(r);
    return rows.length;
  })()`);

/**
 * The top bar's range label, and whether it is cut against the rule: it may give way (ellipsis, the
 * whole range in the button's title) only once the token lookup has given all its room. Whether it has
 * to depends on the live-state pill's text at that moment, so every test judges it by this one rule.
 */
export const rangeLabelState = (page: Page): Promise<{ text: string; cut: boolean; lookupSpent: boolean; titled: boolean }> =>
  page.evaluate(`(() => {
    const label = document.querySelector('[data-testid="time-range-button"] .trp-label');
    const lookup = document.querySelector('header.topbar > .lookup');
    const text = label.textContent || '';
    return {
      text,
      cut: label.scrollWidth > label.clientWidth + 0.5,
      lookupSpent: !lookup || lookup.getBoundingClientRect().width <= parseFloat(getComputedStyle(lookup).minWidth) + 1,
      // (the title carries the years the label leaves out)
      titled: (document.querySelector('[data-testid="time-range-button"]').getAttribute('title') || '')
        .replace(/\\b\\d{4}-/g, '')
        .includes(text || '\\u0000'),
    };
  })()`);

/** The range label's problem, if any: cut while the lookup still has room, or cut without its whole title. */
export async function rangeLabelProblems(page: Page): Promise<string[]> {
  const label = await rangeLabelState(page);
  return label.cut && !(label.lookupSpent && label.titled)
    ? [`the range label "${label.text}" is cut while the token lookup still has room`]
    : [];
}
