export interface TestCluster {
  url: string;
  started: boolean;
  stop(): void;
  /** CPU seconds the throwaway cluster's server processes used so far (absent for DOORWATCH_TEST_PG_URL; undefined off Linux). */
  cpuSeconds?(): number | undefined;
}
export interface ThrowawayCluster extends TestCluster {
  /** Stops the server (fast shutdown) and keeps its data. */
  pause(): Promise<void>;
  /** Starts it again on the same data and port. */
  resume(): Promise<void>;
  /** A hot-standby streaming replica of this cluster on another loopback port (pg_basebackup -R -X stream). */
  startReplica(): Promise<{ url: string; stop(): void }>;
}
export function findPostgresBin(): string | null;
export function postgresProblems(): string[];
export function startTestCluster(): Promise<TestCluster>;
export function startThrowawayCluster(): Promise<ThrowawayCluster>;
