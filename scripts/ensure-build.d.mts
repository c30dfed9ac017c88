export function sourceHash(): string;
/** hash: a sourceHash() the caller already computed. */
export function ensureBuild(options?: { quiet?: boolean; hash?: string }): boolean;
