import type { ESLint } from 'eslint';
export function importTarget(importerAbsolute: string, specifier: string): string | null;
export const layersPlugin: ESLint.Plugin;
