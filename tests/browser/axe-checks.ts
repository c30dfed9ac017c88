// axe-core's WCAG AA colour contrast and a few cheap naming rules (buttons, links, form fields), as
// the readable and audit browser tests run them.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';

const AXE_RULES = ['color-contrast', 'button-name', 'link-name', 'label', 'select-name', 'input-button-name', 'aria-valid-attr-value'];

/** axe's violations on the page, one line per element. */
export async function axeProblems(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withRules(AXE_RULES).analyze();
  return result.violations.flatMap((v) =>
    v.nodes.map((n) => `${v.id}: ${n.target.join(' ')} — ${n.failureSummary?.split('\n').slice(1).join(' ').trim() ?? ''}`),
  );
}
