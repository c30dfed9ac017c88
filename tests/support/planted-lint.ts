// ESLint with the project's own eslint.config.mjs, for tests that lint planted snippets (files that do
// not exist). The TypeScript project service cannot type a file that does not exist, so the three
// type-aware rules are switched off here; they are not what these tests check. Everything else is the
// project's config.
import { join } from 'node:path';
import { ESLint } from 'eslint';

export const ROOT = join(__dirname, '..', '..');

export const plantedLint = new ESLint({
  cwd: ROOT,
  overrideConfig: {
    languageOptions: { parserOptions: { projectService: false } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'off',
      '@typescript-eslint/no-misused-promises': 'off',
      '@typescript-eslint/await-thenable': 'off',
    },
  },
});
