// Prettier: `npm run format` / `npm run format:check` (npm test's checks run the latter). Chosen to match
// the code as written: single quotes, semicolons, trailing commas; 140 columns because ~97% of code lines
// already fit (comments wrap at 120) and trying 100-180 on a copy of the tree, 140-160 changed the fewest
// lines.
/** @type {import('prettier').Config} */
export default {
  printWidth: 140,
  singleQuote: true,
  semi: true,
  trailingComma: 'all',
  arrowParens: 'always',
};
