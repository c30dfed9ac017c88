// Human output: plain-text tables that fit the terminal (80 columns when not a terminal) and colour
// only when stdout is a TTY and NO_COLOR is unset (https://no-color.org).

export interface Style {
  color: boolean;
  width: number;
}

export function styleOf(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv): Style {
  const tty = stream.isTTY === true;
  return {
    color: tty && !env.NO_COLOR && env.TERM !== 'dumb',
    width: tty && stream.columns ? Math.max(40, stream.columns) : 80,
  };
}

const CODES = { red: 31, green: 32, yellow: 33, dim: 2, bold: 1 } as const;
export type Paint = keyof typeof CODES;

export function paint(style: Style, colour: Paint | null, text: string): string {
  return style.color && colour ? `\u001b[${CODES[colour]}m${text}\u001b[0m` : text;
}

export interface Column<Row> {
  header: string;
  value: (row: Row) => string;
  colour?: (row: Row) => Paint | null;
  align?: 'right';
  /** The column that gives up width when the table is too wide (at most one per table). */
  flexible?: boolean;
}

function clip(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}…`;
}

/** One line cut to the width (colour codes do not count: only plain text is cut). */
export function fit(style: Style, text: string): string {
  return text.includes('\u001b[') ? text : clip(text, style.width);
}

/** Rows under a header, columns two spaces apart, the flexible column clipped so a line fits `style.width`. */
export function table<Row>(style: Style, columns: readonly Column<Row>[], rows: readonly Row[]): string {
  const cells = rows.map((r) => columns.map((c) => c.value(r)));
  const widths = columns.map((c, i) => Math.max(c.header.length, ...cells.map((row) => row[i].length)));
  const total = widths.reduce((a, b) => a + b, 0) + 2 * (columns.length - 1);
  const flex = columns.findIndex((c) => c.flexible);
  if (total > style.width) {
    const i = flex >= 0 ? flex : columns.length - 1;
    widths[i] = Math.max(columns[i].header.length, widths[i] - (total - style.width));
  }
  const line = (values: string[], colours: (Paint | null)[]) =>
    values
      .map((v, i) => {
        const text = clip(v, widths[i]);
        const padded = columns[i].align === 'right' ? text.padStart(widths[i]) : i === values.length - 1 ? text : text.padEnd(widths[i]);
        return paint(style, colours[i], padded);
      })
      .join('  ');
  const head = line(
    columns.map((c) => c.header),
    columns.map(() => 'bold'),
  );
  const body = rows.map((r, n) =>
    line(
      cells[n],
      columns.map((c) => c.colour?.(r) ?? null),
    ),
  );
  return [head, ...body].join('\n');
}

/** "3 s ago", "12 min ago", "5 h ago", "2 d ago" (relative to the server's clock `now`). */
export function ago(iso: string | null, now: number): string {
  if (!iso) return '—';
  const s = Math.max(0, now - Date.parse(iso)) / 1000;
  if (s < 90) return `${Math.round(s)} s ago`;
  if (s < 90 * 60) return `${Math.round(s / 60)} min ago`;
  if (s < 48 * 3600) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86400)} d ago`;
}

/** UTC time of day with milliseconds, as the timeline shows it: 10:42:07.123. */
export const clock = (iso: string): string => iso.slice(11, 23);
