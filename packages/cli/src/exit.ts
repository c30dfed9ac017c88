// The CLI's exit codes (docs/cli.md, "Exit codes") and the one error type every command throws:
// main.ts prints its message as one line on stderr and exits with its code, never a stack trace.

export const EXIT = {
  /** Done; for the gate and `probe --wait`: the server refuses correctly. */
  ok: 0,
  /** A finding: the gate or a waited probe saw the server resume naively (evidence printed). */
  finding: 1,
  /** Inconclusive: a probe that could not decide, no data to judge by, or the wait timed out. */
  inconclusive: 2,
  /** The token was refused (401) or its role may not do this (403). */
  auth: 3,
  /** Doorwatch could not be reached or did not answer properly (refused, DNS, timeout, 5xx). */
  unavailable: 4,
  /** The server, session or probe target named does not exist (404). */
  notFound: 5,
  /** Bad usage or input: an unknown flag, a malformed time, an oversized limit (locally or the API's 400). */
  usage: 64,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export class CliError extends Error {
  constructor(
    readonly exitCode: ExitCode,
    /** Machine-readable, as the API's error codes are (e.g. invalid_limit, unauthorized, unreachable). */
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
