export const START_BUNDLE: string;
export function compileStart(appSourceHash: string): string;
export function ensureStartBundle(appSourceHash: string): string;
