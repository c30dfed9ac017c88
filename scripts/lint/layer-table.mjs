// The layer table of docs/architecture.md ("## Layers") as data: the one source of the floor plan, read by
// the lint rule (layer-rule.mjs) and by the tests. Rows run from the ground up; a row's `where` cell names
// folders (`lib/db/`) or files (`proxy.ts`); `may import` is "below", "nothing in the app" or
// "below except `lib/x/`, …".
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const ARCHITECTURE = join(ROOT, 'docs', 'architecture.md');

const cells = (line) =>
  line
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((c) => c.trim());
const codeSpans = (cell) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]);

/**
 * The rows of the first table under "## Layers": [{ rank, layer, places, except, nothing }], rank 0 at the
 * ground. Throws when the table is missing or malformed, so a broken table fails the lint, never silently.
 */
export function parseLayerTable(markdown) {
  const lines = markdown.split('\n');
  const heading = lines.findIndex((l) => l.trim() === '## Layers');
  if (heading < 0) throw new Error('docs/architecture.md has no "## Layers" section');
  let i = heading + 1;
  while (i < lines.length && !lines[i].startsWith('|')) {
    if (lines[i].startsWith('## ')) throw new Error('the "## Layers" section has no table');
    i++;
  }
  const header = cells(lines[i] ?? '');
  const col = (name) => header.indexOf(name);
  if (col('layer') < 0 || col('where') < 0 || col('may import') < 0) {
    throw new Error(`the layer table needs the columns layer | where | may import (got: ${header.join(' | ')})`);
  }
  const rows = [];
  for (i += 2; i < lines.length && lines[i].startsWith('|'); i++) {
    const c = cells(lines[i]);
    const places = codeSpans(c[col('where')]);
    const may = c[col('may import')];
    if (places.length === 0) throw new Error(`layer table row "${lines[i]}" names no place`);
    if (!/^(below|below except .+|nothing in the app)$/.test(may)) {
      throw new Error(
        `layer table row for ${places.join(', ')}: "may import" must be "below", "below except \`…\`" or "nothing in the app", got "${may}"`,
      );
    }
    rows.push({
      rank: rows.length,
      layer: c[col('layer')],
      places,
      except: may.startsWith('below except') ? codeSpans(may) : [],
      nothing: may === 'nothing in the app',
    });
  }
  return rows;
}

export function readLayerTable(path = ARCHITECTURE) {
  return parseLayerTable(readFileSync(path, 'utf8'));
}

/** The row a repository path (no leading ./, extension optional) belongs to: the longest place that holds it. */
export function rowOf(rows, path) {
  let best = null;
  let bestLength = -1;
  for (const row of rows) {
    for (const place of row.places) {
      const holds = place.endsWith('/')
        ? path.startsWith(place) || path === place.slice(0, -1)
        : path === place || path === place.replace(/\.[cm]?[jt]sx?$/, '');
      if (holds && place.length > bestLength) {
        best = { row, place };
        bestLength = place.length;
      }
    }
  }
  return best;
}
