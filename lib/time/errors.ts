// Typed errors of the time module. Plain Errors with a machine code so the server can map them to
// ApiError at its edge (lib/queries) and the UI can show the message; lib/time knows nothing of HTTP.

/** Which input was wrong: one of the two instants, or the pair (order, length). */
export type TimeParam = 'from' | 'to' | 'range';

export class TimeRangeError extends Error {
  readonly code = 'invalid_time_range';
  constructor(
    readonly param: TimeParam,
    message: string,
  ) {
    super(message);
    this.name = 'TimeRangeError';
  }
}

export class BucketError extends Error {
  readonly code = 'invalid_bucket';
  constructor(message: string) {
    super(message);
    this.name = 'BucketError';
  }
}
