// Checks the CycloneDX SBOM .ci/run writes with `npm sbom` (test-output/sbom.cdx.json): valid JSON,
// CycloneDX 1.4 or later, the root component named, and components each with a name, a version and
// a package URL. A broken or empty SBOM fails CI instead of being published as if it were one.
// Usage: node scripts/check-sbom.mjs FILE
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The problems of one SBOM document (its text); an empty list when it is sound. */
export function sbomProblems(text, { mustInclude = [] } = {}) {
  let bom;
  try {
    bom = JSON.parse(text);
  } catch (err) {
    return [`not JSON: ${err.message}`];
  }
  const problems = [];
  if (bom?.bomFormat !== 'CycloneDX') problems.push(`bomFormat is ${JSON.stringify(bom?.bomFormat)}, not "CycloneDX"`);
  const [major, minor] = String(bom?.specVersion ?? '')
    .split('.')
    .map(Number);
  if (!(major > 1 || (major === 1 && minor >= 4))) problems.push(`specVersion ${JSON.stringify(bom?.specVersion)} is not 1.4 or later`);
  if (typeof bom?.metadata?.component?.name !== 'string') problems.push('metadata.component (the project itself) has no name');
  const components = Array.isArray(bom?.components) ? bom.components : [];
  if (components.length === 0) problems.push('no components');
  for (const c of components) {
    if (typeof c?.name !== 'string' || typeof c?.version !== 'string' || typeof c?.purl !== 'string' || !c.purl.startsWith('pkg:npm/'))
      problems.push(`component ${JSON.stringify(c?.['bom-ref'] ?? c?.name)} lacks a name, a version or an npm package URL`);
  }
  const names = new Set(components.map((c) => c?.name));
  for (const name of mustInclude) if (!names.has(name)) problems.push(`no component "${name}"`);
  return problems;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: node scripts/check-sbom.mjs FILE');
    process.exit(2);
  }
  const text = readFileSync(file, 'utf8');
  // The runtime dependencies the image cannot do without must be listed.
  const problems = sbomProblems(text, { mustInclude: ['next', 'react', 'pg', 'better-sqlite3', 'zod'] });
  if (problems.length > 0) {
    console.error(`sbom: ${file} is not a usable CycloneDX SBOM:\n  ${problems.slice(0, 20).join('\n  ')}`);
    process.exit(1);
  }
  console.log(`sbom: ${file}: CycloneDX ${JSON.parse(text).specVersion}, ${JSON.parse(text).components.length} components`);
}
