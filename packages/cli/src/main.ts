// The `doorwatch` bin: picks the command, parses its flags (node:util parseArgs), resolves the
// connection, runs it, and turns every failure into one line on stderr and a documented exit code
// (exit.ts). The token is never printed: any message that would contain it has it masked.
import { parseArgs } from 'node:util';
import { createApi } from './api';
import type { Command, Flags } from './command';
import { resolveConnection } from './config';
import { CliError, EXIT, type ExitCode } from './exit';
import { commandHelp, mainHelp } from './help';
import { styleOf } from './render';
import { ackCommand } from './commands/ack';
import { annotateCommand } from './commands/annotate';
import { gateCommand } from './commands/gate';
import { incidentsCommand } from './commands/incidents';
import { probeCommand } from './commands/probe';
import { serversCommand } from './commands/servers';
import { sessionCommand } from './commands/session';
import { sessionsCommand } from './commands/sessions';
import { statusCommand } from './commands/status';
import { tailCommand } from './commands/tail';

declare const DOORWATCH_CLI_VERSION: string;
const VERSION = typeof DOORWATCH_CLI_VERSION === 'string' ? DOORWATCH_CLI_VERSION : 'dev';
const COMMANDS: readonly Command[] = [
  statusCommand,
  serversCommand,
  sessionsCommand,
  sessionCommand,
  tailCommand,
  probeCommand,
  gateCommand,
  incidentsCommand,
  ackCommand,
  annotateCommand,
];
const REQUEST_TIMEOUT_MS = 30_000;

const GLOBAL_OPTIONS = {
  url: { type: 'string' },
  token: { type: 'string' },
  context: { type: 'string' },
  json: { type: 'boolean' },
  verbose: { type: 'boolean', short: 'v' },
  help: { type: 'boolean', short: 'h' },
} as const;

async function run(argv: string[], env: NodeJS.ProcessEnv): Promise<ExitCode> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${mainHelp(COMMANDS, VERSION)}\n`);
    return name ? EXIT.ok : EXIT.usage;
  }
  if (name === '--version') {
    process.stdout.write(`${VERSION}\n`);
    return EXIT.ok;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) throw new CliError(EXIT.usage, 'unknown_command', `unknown command "${name}"; doorwatch --help lists them`);
  let parsed: { values: Flags; positionals: string[] };
  try {
    parsed = parseArgs({
      args: rest,
      options: { ...GLOBAL_OPTIONS, ...command.options },
      allowPositionals: true,
      strict: true,
    }) as typeof parsed;
  } catch (err) {
    throw new CliError(EXIT.usage, 'usage', `${err instanceof Error ? err.message : String(err)}; doorwatch ${name} --help`);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(`${commandHelp(command)}\n`);
    return EXIT.ok;
  }
  const connection = resolveConnection(
    { url: values.url as string, token: values.token as string, context: values.context as string },
    env,
  );
  secret = connection.token;
  const api = createApi(connection, { verbose: values.verbose === true, timeoutMs: REQUEST_TIMEOUT_MS });
  return command.run({
    api,
    flags: values,
    positionals,
    json: values.json === true,
    style: styleOf(process.stdout, env),
    out: (text) => process.stdout.write(`${mask(text)}\n`),
    note: (text) => process.stderr.write(`${mask(text)}\n`),
  });
}

/** The token once known, so that no output line can carry it. */
let secret: string | null = null;
const mask = (text: string) => (secret && secret.length >= 4 ? text.split(secret).join('***') : text);

function finish(code: ExitCode): void {
  // Let stdout drain (a pipe), then leave even if a stream or timer is still open.
  process.stdout.write('', () => process.exit(code));
}

run(process.argv.slice(2), process.env).then(finish, (err: unknown) => {
  if (err instanceof CliError) {
    process.stderr.write(`doorwatch: ${mask(err.message)} [${err.code}]\n`);
    finish(err.exitCode);
    return;
  }
  // A bug of the CLI itself: still one line, never a stack trace.
  process.stderr.write(`doorwatch: unexpected failure: ${mask(err instanceof Error ? err.message : String(err))} [internal]\n`);
  finish(EXIT.unavailable);
});
