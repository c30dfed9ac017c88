// Structured logs: one JSON object per line (pino), level from LOG_LEVEL. Secrets never reach a
// line: callers log names and counts, never headers or bodies, and `redact` censors the fields
// that could hold one should an object carrying them be logged anyway (operator tokens,
// cookies, webhook secrets and signatures). LOG_FORMAT=pretty (the demo) renders readable lines
// with pino-pretty, loaded only then.
import { processSingleton } from '@/lib/config/process-state';
import pino, { type Logger } from 'pino';
import { settings } from '@/lib/config/settings';

export const REDACT_PATHS = [
  'authorization',
  'cookie',
  'token',
  'secret',
  'password',
  '*.authorization',
  '*.cookie',
  '*.token',
  '*.secret',
  '*.secrets',
  '*.password',
  'headers["webhook-signature"]',
  'headers["svix-signature"]',
  'headers["set-cookie"]',
  '*.headers.authorization',
  '*.headers.cookie',
];

function build(): Logger {
  let level = 'info';
  let pretty = false;
  try {
    const s = settings();
    level = s.LOG_LEVEL;
    pretty = s.LOG_FORMAT === 'pretty';
  } catch {
    // Invalid settings stop start-up elsewhere with their own message; log at info meanwhile.
  }
  const options = {
    level,
    base: { app: 'doorwatch' },
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  if (!pretty) return pino(options);
  // Synchronous pretty stream (no worker thread): only the demo asks for it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const pinoPretty = require('pino-pretty') as typeof import('pino-pretty');
  return pino(options, pinoPretty.build({ colorize: true, sync: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,app' }));
}

/** The process's logger (built on first use, after settings are read). */
export function logger(): Logger {
  return processSingleton('doorwatchLogger', build);
}

/** A module's logger: every line carries `component`. */
export const componentLogger = (component: string): Logger => logger().child({ component });
