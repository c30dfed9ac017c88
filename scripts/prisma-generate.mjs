// Writes prisma/<provider>/schema.prisma from prisma/models.prisma and generates both
// Prisma clients. Runs at `npm install` with no network: Prisma 7's CLI insists on
// locating its native schema engine even for `generate` (which never runs it), so we
// point PRISMA_SCHEMA_ENGINE_BINARY at a harmless executable unless the user set one.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const PROVIDERS = ['sqlite', 'postgresql'];

export function composeSchema(provider) {
  const models = readFileSync(join(root, 'prisma/models.prisma'), 'utf8');
  return `// GENERATED from prisma/models.prisma by scripts/prisma-generate.mjs — edit that file instead.
generator client {
  provider     = "prisma-client"
  output       = "../../lib/db/generated/${provider}"
  moduleFormat = "esm"
}

datasource db {
  provider = "${provider}"
}

${models}`;
}

function main() {
  const checkOnly = process.argv.includes('--check');
  let stale = [];
  for (const provider of PROVIDERS) {
    const file = join(root, 'prisma', provider, 'schema.prisma');
    const text = composeSchema(provider);
    const current = existsSync(file) ? readFileSync(file, 'utf8') : '';
    if (current !== text) {
      if (checkOnly) stale.push(file);
      else {
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, text);
      }
    }
  }
  if (checkOnly) {
    if (stale.length) {
      console.error(`stale generated schema: ${stale.join(', ')} (run node scripts/prisma-generate.mjs)`);
      process.exit(1);
    }
    return;
  }
  const env = {
    ...process.env,
    PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY || process.execPath,
    CHECKPOINT_DISABLE: '1',
    PRISMA_HIDE_UPDATE_MESSAGE: '1',
  };
  const cli = join(root, 'node_modules/prisma/build/index.js');
  for (const provider of PROVIDERS) {
    execFileSync(process.execPath, [cli, 'generate', '--schema', join('prisma', provider, 'schema.prisma')], {
      cwd: root,
      env,
      stdio: 'inherit',
    });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
