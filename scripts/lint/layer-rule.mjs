// ESLint rule layers/no-upward-import: every import must point down the floor plan of docs/architecture.md
// (layer-table.mjs reads it at lint time, so the table and the rule are one source). An import of a row
// further up the table, or a `lib/` folder the table does not name, fails the lint.
import { existsSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { ROOT, readLayerTable, rowOf } from './layer-table.mjs';

let cached = null;
function table() {
  cached ??= readLayerTable();
  return cached;
}

const toRepoPath = (absolute) => relative(ROOT, absolute).split(sep).join('/');

/** The repository path an import names ("@/lib/x" or a relative path), or null for a package. */
export function importTarget(importerAbsolute, specifier) {
  if (specifier.startsWith('@/')) return specifier.slice(2).replace(/\.js$/, '');
  if (specifier.startsWith('./') || specifier.startsWith('../')) {
    return toRepoPath(resolve(dirname(importerAbsolute), specifier)).replace(/\.js$/, '');
  }
  return null;
}

const libFolder = (path) => /^lib\/([^/]+)\//.exec(path)?.[0] ?? null;

const noUpwardImport = {
  meta: {
    type: 'problem',
    docs: { description: 'Imports point down the layer table of docs/architecture.md' },
    schema: [],
    messages: {
      upward:
        '{{importer}} ({{fromLayer}}) imports {{target}} ({{toLayer}}), a layer above it in docs/architecture.md: move the concept to the layer that owns it, or change the table',
      walled: '{{importer}} may not import {{target}}: its row in docs/architecture.md says "below except {{walls}}"',
      nothing: '{{importer}} ({{fromLayer}}) imports {{target}}: its row in docs/architecture.md may import nothing in the app',
      unplaced: '{{folder}} has no row in the layer table of docs/architecture.md: add one, in layer order',
    },
  },
  create(context) {
    const filename = context.physicalFilename ?? context.filename;
    const importer = toRepoPath(filename);
    if (importer.startsWith('..')) return {};
    const rows = table();
    const from = rowOf(rows, importer);
    const folder = libFolder(importer);
    const check = (node, specifier) => {
      if (typeof specifier !== 'string') return;
      const target = importTarget(filename, specifier);
      if (target === null) return;
      const to = rowOf(rows, target);
      if (!to) {
        const targetFolder = libFolder(target + '/');
        if (targetFolder && existsSync(resolve(ROOT, targetFolder))) {
          context.report({ node, messageId: 'unplaced', data: { folder: targetFolder } });
        }
        return;
      }
      if (to.row === from.row) return;
      const data = { importer, target, fromLayer: `${from.row.layer}, ${from.place}`, toLayer: `${to.row.layer}, ${to.place}` };
      if (from.row.nothing) context.report({ node, messageId: 'nothing', data });
      else if (to.row.rank >= from.row.rank) context.report({ node, messageId: 'upward', data });
      else if (from.row.except.includes(to.place)) {
        context.report({ node, messageId: 'walled', data: { ...data, walls: from.row.except.join(', ') } });
      }
    };
    if (!from) {
      if (!folder) return {};
      return { Program: (node) => context.report({ node, messageId: 'unplaced', data: { folder } }) };
    }
    const fromSource = (node) => check(node.source, node.source?.value);
    return {
      ImportDeclaration: fromSource,
      ExportNamedDeclaration: (node) => node.source && fromSource(node),
      ExportAllDeclaration: fromSource,
      ImportExpression: (node) => node.source.type === 'Literal' && check(node.source, node.source.value),
      TSImportType: (node) => {
        const arg = node.argument?.type === 'TSLiteralType' ? node.argument.literal : node.argument;
        if (arg?.type === 'Literal') check(arg, arg.value);
      },
    };
  },
};

/** The plugin as eslint.config.mjs registers it: `layers/no-upward-import`. */
export const layersPlugin = { meta: { name: 'layers' }, rules: { 'no-upward-import': noUpwardImport } };
