// Next.js writes its own lines with console.* ("✓ Running next.config.js took 252ms", "⚠ …"), which
// would break a JSON log apart: a collector expects one JSON object per line. The serving process
// sends every console call through the logger instead (component "next"), ANSI colours and Next's
// status glyph stripped, the glyph's meaning kept in the level.
import { format } from 'node:util';
import type { Logger } from 'pino';

// eslint-disable-next-line no-control-regex -- ANSI colour codes start with ESC
const ANSI = /\u001b\[[0-9;]*m/g;
// Next's prefixes (next/dist/build/output/log.js): ✓ event, ⚠ warn, ⨯ error, ○ wait, ▲ bootstrap, » trace.
const GLYPH = /^\s*[✓⚠⨯○▲»]\s*/u;

type Level = 'debug' | 'info' | 'warn' | 'error';

/** The text of a console call as one log message: formatted like console would, uncoloured, unprefixed. */
export function consoleMessage(args: readonly unknown[]): string {
  return format(...args)
    .replace(ANSI, '')
    .replace(GLYPH, '')
    .trim();
}

/** Routes console.log/info/debug/warn/error to `log`; blank lines are dropped. */
export function routeConsoleToLog(log: Logger): void {
  const to =
    (level: Level) =>
    (...args: unknown[]) => {
      const msg = consoleMessage(args);
      if (msg) log[level](msg);
    };
  console.log = to('info');
  console.info = to('info');
  console.debug = to('debug');
  console.warn = to('warn');
  console.error = to('error');
}
