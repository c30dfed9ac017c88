import type { Rule } from 'eslint';

/** The SQL shape a text holds ('INSERT INTO', 'a condition', …), or null. */
export function sqlShape(text: string): string | null;

declare const rule: Rule.RuleModule;
export default rule;
