export type MigrationErrorCode =
  | 'migrations_missing'
  | 'provider_mismatch'
  | 'failed_migration_pending'
  | 'migration_failed'
  | 'unknown_migration'
  | 'database_newer_than_app';

/** A migration problem with a code scripts can switch on and a message that says what to do. */
export class MigrationError extends Error {
  constructor(
    readonly code: MigrationErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'MigrationError';
  }
}
