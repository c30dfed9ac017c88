// Types of scripts/check-sbom.mjs for the TypeScript tests.
export function sbomProblems(text: string, options?: { mustInclude?: readonly string[] }): string[];
