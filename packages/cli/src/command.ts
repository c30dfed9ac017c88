// What every command is: its flags (node:util parseArgs), its help, and a run that writes its
// output and returns the exit code (or throws a CliError).
import type { ParseArgsConfig } from 'node:util';
import type { Api } from './api';
import { CliError, EXIT, type ExitCode } from './exit';
import type { Style } from './render';

type OptionDescriptor = NonNullable<ParseArgsConfig['options']>[string];

export type Flags = Record<string, string | boolean | string[] | undefined>;

export interface CommandContext {
  api: Api;
  flags: Flags;
  positionals: string[];
  json: boolean;
  style: Style;
  out(text: string): void;
  /** A note for a person (stderr), never part of the --json output. */
  note(text: string): void;
}

export interface Command {
  name: string;
  /** Positional arguments, for the usage line: "SERVER", "TOKEN". */
  args: string;
  summary: string;
  options: Record<string, OptionDescriptor & { help: string; arg?: string }>;
  run(ctx: CommandContext): Promise<ExitCode>;
}

export function flagString(flags: Flags, name: string): string | undefined {
  const v = flags[name];
  return typeof v === 'string' ? v : undefined;
}

export function flagList(flags: Flags, name: string): string[] {
  const v = flags[name];
  return Array.isArray(v) ? v : typeof v === 'string' ? [v] : [];
}

/** The one positional a command takes (SERVER, TOKEN), or a usage error naming it. */
export function positional(ctx: CommandContext, name: string): string {
  if (ctx.positionals.length !== 1) {
    throw new CliError(EXIT.usage, 'usage', `expected one ${name}, got ${ctx.positionals.length ? ctx.positionals.join(' ') : 'none'}`);
  }
  return ctx.positionals[0];
}

/** "15m" → "now-15m" (a look-back as `--since` takes it); other forms (RFC 3339, epoch ms, now-1h/h) pass as they are. */
export function sinceInstant(value: string): string {
  return /^\d+[smhdwMy]$/.test(value) ? `now-${value}` : value;
}

/** "2m", "90s", "1500ms", "1h" → milliseconds. */
export function durationMs(value: string, flag: string): number {
  const m = /^(\d+)(ms|s|m|h)$/.exec(value.trim());
  if (!m || Number(m[1]) === 0)
    throw new CliError(EXIT.usage, `invalid_${flag}`, `--${flag}: "${value}" is not a duration such as 90s, 2m or 1h`);
  return Number(m[1]) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[2] as 'ms' | 's' | 'm' | 'h'];
}
