// What the runner needs from a database to keep Prisma's _prisma_migrations bookkeeping.
export interface AppliedMigrationRow {
  id: string;
  migration_name: string;
  checksum: string;
  finished_at: unknown;
  rolled_back_at: unknown;
  logs: string | null;
}

export interface MigrationDriver {
  /** Serialises concurrent runners (several app instances starting at once). */
  lock(): Promise<void>;
  unlock(): Promise<void>;
  ensureMigrationsTable(): Promise<void>;
  appliedRows(): Promise<AppliedMigrationRow[]>;
  recordStart(id: string, name: string, checksum: string): Promise<void>;
  /** Runs one migration script atomically; throws on failure with nothing applied. */
  applyScript(sql: string): Promise<void>;
  recordFinish(id: string): Promise<void>;
  recordFailure(id: string, logs: string): Promise<void>;
  markRolledBack(name: string): Promise<number>;
  close(): Promise<void>;
}
