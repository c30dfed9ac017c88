// scripts/check-sbom.mjs, the check .ci/run runs on the CycloneDX SBOM `npm sbom` writes: it
// accepts a sound document and names what is wrong with a broken one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sbomProblems } from '@/scripts/check-sbom.mjs';

const component = (name: string, version = '1.0.0') => ({
  'bom-ref': `${name}@${version}`,
  type: 'library',
  name,
  version,
  purl: `pkg:npm/${name}@${version}`,
});
const sound = {
  bomFormat: 'CycloneDX',
  specVersion: '1.5',
  metadata: { component: { name: 'doorwatch', version: '0.1.0' } },
  components: [component('next'), component('zod', '4.1.0')],
};

test('a sound CycloneDX document has no problems', () => {
  assert.deepEqual(sbomProblems(JSON.stringify(sound), { mustInclude: ['next', 'zod'] }), []);
});

test('broken documents are refused with what is wrong', () => {
  assert.match(sbomProblems('{"bomFormat": "CycloneDX",')[0], /^not JSON/);
  assert.deepEqual(sbomProblems(JSON.stringify({ ...sound, components: [] })), ['no components']);
  assert.deepEqual(sbomProblems(JSON.stringify({ ...sound, bomFormat: 'SPDX' })), ['bomFormat is "SPDX", not "CycloneDX"']);
  assert.deepEqual(sbomProblems(JSON.stringify({ ...sound, specVersion: '1.3' })), ['specVersion "1.3" is not 1.4 or later']);
  assert.match(
    sbomProblems(JSON.stringify({ ...sound, components: [{ name: 'x' }] })).join(),
    /lacks a name, a version or an npm package URL/,
  );
  assert.deepEqual(sbomProblems(JSON.stringify(sound), { mustInclude: ['react'] }), ['no component "react"']);
});
