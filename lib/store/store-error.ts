// What the store refuses, without HTTP: a kind the caller maps to its own answer (the route
// wrapper to a status, the CLI to an exit), a code a machine can switch on, a message a person can act on.
export type StoreErrorKind = 'invalid' | 'conflict' | 'not_found' | 'unavailable';

export class StoreError extends Error {
  constructor(
    readonly kind: StoreErrorKind,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'StoreError';
  }
}
