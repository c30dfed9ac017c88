export function outsideTestsMs(run: { out: string; ms: number }): number;
export interface PoolJob<R> {
  key: string;
  ready: Promise<unknown>;
  estimate: number;
  group?: string;
  beside?: boolean;
  run(): Promise<R>;
}
export function runPool<R>(
  jobs: PoolJob<R>[],
  limit: number,
  onDone: (job: PoolJob<R>, result: R | { blocked: unknown }) => void,
  groupLimits?: Record<string, number>,
): Promise<Map<string, R | { blocked: unknown }>>;
export function runProcess(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number; nice?: number },
): Promise<{ code: number; out: string; ms: number; cpuS?: number }>;
