// ESLint flat config: `npm run lint`, also run by `npm test` next to the typecheck. Layout and spacing are
// Prettier's job (prettier.config.mjs); these rules are about correctness.
import js from '@eslint/js';
import nextPlugin from '@next/eslint-plugin-next';
import { defineConfig, globalIgnores } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { layersPlugin } from './scripts/lint/layer-rule.mjs';
import noSqlOutsideStore from './scripts/lint/no-sql-outside-store.mjs';

// The project's SQL rule (scripts/lint/) as a plugin registered once below, turned on for the files it
// governs; the layer rule brings its own plugin (layersPlugin).
const doorwatch = { meta: { name: 'doorwatch' }, rules: { 'no-sql-outside-store': noSqlOutsideStore } };

export default defineConfig([
  globalIgnores(['.next/', 'lib/db/generated/', 'data/', 'test-output/', 'next-env.d.ts', '**/dist/']),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    plugins: { doorwatch },
    languageOptions: { globals: { ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Off: it flags dead initial values (`let json = ''` before a try), a style matter, not a bug.
      'no-useless-assignment': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // The type-aware rules worth their cost: a dropped promise is a lost write or an unhandled rejection.
    files: ['**/*.{ts,tsx,mts}'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'it', 'describe', 'suite'] }] },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  {
    // The floor plan of docs/architecture.md's layer table: no import points up a layer.
    files: ['app/**', 'components/**', 'lib/**', 'scripts/**', 'proxy.ts', 'instrumentation.ts', 'instrumentation-node.ts'],
    plugins: { layers: layersPlugin },
    rules: { 'layers/no-upward-import': 'error' },
  },
  {
    // Size (issue 22): a file past 400 lines or a function past 150 holds more than one concept; split it
    // by concern instead of growing it. Lines are counted as `wc -l` counts them (blank lines and comments
    // too): that is the length a reader scrolls. Tests are exempt (a table of cases is long by nature);
    // generated code (lib/db/generated) is ignored above. tests/unit/lint-size.test.ts plants offenders.
    files: ['**/*.{ts,tsx,mts,js,mjs}'],
    ignores: ['tests/**'],
    rules: {
      'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }],
      'max-lines-per-function': ['error', { max: 150, skipBlankLines: false, skipComments: false, IIFEs: true }],
    },
  },
  {
    // The store owns every statement: SQL text in lib/store (tables) and lib/db (connections, migrations) only.
    files: ['app/**/*.{ts,tsx,mts,js,mjs}', 'components/**/*.{ts,tsx,mts,js,mjs}', 'lib/**/*.{ts,tsx,mts,js,mjs}'],
    ignores: ['lib/store/**', 'lib/db/**'],
    rules: { 'doorwatch/no-sql-outside-store': 'error' },
  },
  {
    // What the browser loads: the UI and the contracts it shares with the routes. A Node module here is bundled
    // as Next's polyfill (server-secret.ts's node:crypto put crypto, stream and buffer shims in every page).
    files: ['components/**/*.{ts,tsx}', 'lib/ui/**/*.{ts,tsx}', 'lib/contract/**/*.ts'],
    ignores: ['lib/contract/server-secret.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*'], message: 'code the browser loads cannot use Node modules' },
            { group: ['**/server-secret'], message: 'server-only (node:crypto); the server name is in server-name.ts' },
          ],
        },
      ],
    },
  },
  {
    // Tests and benchmarks read untyped JSON response bodies; `as any` stays banned in the product code.
    files: ['tests/**/*.{ts,tsx}', 'scripts/bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['app/**/*.{ts,tsx}', 'components/**/*.{ts,tsx}', 'lib/ui/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    extends: [reactHooks.configs.flat['recommended-latest'], nextPlugin.configs['core-web-vitals']],
    rules: {
      // Off: it flags the deliberate "reset local input when the URL changes" effects (token search box);
      // the React Compiler, whose cascade it guards against, is not used here.
      'react-hooks/set-state-in-effect': 'off',
      // Off: logout deliberately reloads the whole page so no cached query data survives the session.
      '@next/next/no-location-assign-relative-destination': 'off',
    },
  },
]);
