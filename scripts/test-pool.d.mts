export function outsideTestsMs(run: { out: string; ms: number }): number;
