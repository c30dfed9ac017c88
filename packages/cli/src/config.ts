// Where the CLI connects and with which token: flags, then an explicitly named context, then the
// environment (DOORWATCH_URL, DOORWATCH_TOKEN), then the config file's current context.
// The config file is $XDG_CONFIG_HOME/doorwatch/config.json (default ~/.config/doorwatch/config.json):
//   { "current": "prod", "contexts": { "prod": { "url": "https://…", "token": "dw_…" } } }
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { CliError, EXIT } from './exit';

const ZContext = z.object({ url: z.string().min(1).optional(), token: z.string().min(1).optional() });
const ZConfigFile = z.object({
  current: z.string().optional(),
  contexts: z.record(z.string(), ZContext).default({}),
});

export interface Connection {
  url: string;
  token: string | null;
  /** The context the values came from, for error messages ("context prod"); null without one. */
  context: string | null;
}

export interface ConnectionFlags {
  url?: string;
  token?: string;
  context?: string;
}

export function configPath(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(base, 'doorwatch', 'config.json');
}

function readConfigFile(path: string): z.output<typeof ZConfigFile> | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return null;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new CliError(EXIT.usage, 'invalid_config', `${path} is not valid JSON`);
  }
  const parsed = ZConfigFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new CliError(EXIT.usage, 'invalid_config', `${path}: ${issue.path.join('.') || 'file'}: ${issue.message}`);
  }
  return parsed.data;
}

export function resolveConnection(flags: ConnectionFlags, env: NodeJS.ProcessEnv): Connection {
  const path = configPath(env);
  const file = readConfigFile(path);
  const named = flags.context ?? env.DOORWATCH_CONTEXT;
  if (named !== undefined && !file?.contexts[named]) {
    const known = Object.keys(file?.contexts ?? {});
    throw new CliError(
      EXIT.usage,
      'unknown_context',
      `no context "${named}" in ${path}${known.length ? ` (known: ${known.join(', ')})` : ''}`,
    );
  }
  const current = file?.current && file.contexts[file.current] ? file.current : null;
  const contextName = named ?? current;
  const ctx = contextName ? file!.contexts[contextName] : {};
  // A context named on purpose wins over the environment; the file's default does not.
  const url = flags.url ?? (named ? (ctx.url ?? env.DOORWATCH_URL) : (env.DOORWATCH_URL ?? ctx.url));
  const token = flags.token ?? (named ? (ctx.token ?? env.DOORWATCH_TOKEN) : (env.DOORWATCH_TOKEN ?? ctx.token));
  if (!url) {
    throw new CliError(EXIT.usage, 'no_url', `no Doorwatch URL: set DOORWATCH_URL, pass --url, or add a context to ${path}`);
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CliError(EXIT.usage, 'invalid_url', `the Doorwatch URL "${url}" is not a URL (e.g. https://doorwatch.example.com)`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new CliError(EXIT.usage, 'invalid_url', `the Doorwatch URL must be http(s), not ${parsed.protocol}`);
  }
  return { url: url.replace(/\/+$/, ''), token: token || null, context: contextName };
}
