export function sourceHash(): string;
