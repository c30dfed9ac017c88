// The --help texts, made from the commands' own declarations so they cannot drift from the flags.
import type { Command } from './command';
import { EXIT } from './exit';

const GLOBAL_HELP = [
  ['--url URL', 'Doorwatch base URL (else DOORWATCH_URL, else the context)'],
  ['--token TOKEN', 'operator token (else DOORWATCH_TOKEN, else the context)'],
  ['--context NAME', 'a context of ~/.config/doorwatch/config.json'],
  ['--json', 'machine-readable output (docs/cli.md lists the shapes)'],
  ['-v, --verbose', 'each request and its status on stderr (never the token)'],
  ['-h, --help', 'this help'],
];

const pad = (rows: string[][]) => {
  const w = Math.max(...rows.map((r) => r[0].length));
  return rows.map(([a, b]) => `  ${a.padEnd(w)}  ${b}`).join('\n');
};

export function mainHelp(commands: readonly Command[], version: string): string {
  const exits = Object.entries(EXIT)
    .map(([name, code]) => `${code} ${name}`)
    .join(', ');
  return [
    `doorwatch ${version}: ask Doorwatch from a terminal or a pipeline`,
    '',
    'Usage: doorwatch COMMAND [ARGS] [FLAGS]',
    '',
    'Commands:',
    pad(commands.map((c) => [`${c.name}${c.args ? ` ${c.args}` : ''}`, c.summary])),
    '',
    'Flags of every command:',
    pad(GLOBAL_HELP),
    '',
    `Exit codes: ${exits}.`,
    'doorwatch COMMAND --help shows its flags; docs/cli.md has the details.',
  ].join('\n');
}

export function commandHelp(c: Command): string {
  const own = Object.entries(c.options).map(([name, o]) => [`--${name}${o.arg ? ` ${o.arg}` : ''}`, o.help]);
  return [
    `Usage: doorwatch ${c.name}${c.args ? ` ${c.args}` : ''} [FLAGS]`,
    '',
    c.summary,
    ...(own.length ? ['', 'Flags:', pad(own)] : []),
    '',
    'Flags of every command:',
    pad(GLOBAL_HELP),
  ].join('\n');
}
