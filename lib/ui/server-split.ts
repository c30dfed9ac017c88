/**
 * A chart split by server, as Grafana and Honeycomb draw it: one series per server for the top
 * few by the chart's measure in range, the rest summed into "other". Pure (unit-tested); the
 * overview turns it into stacked bars with serverColorSlots colours.
 */
import type { TServerSplit } from '@/lib/contract/api/stats';

/** The per-server counters a split chart can draw (ZServerSplitBucket). */
export type SplitMeasure = 'boundary' | 'deadlocks' | 'renegotiations';

/** Servers drawn on their own; the rest become "other". */
export const SPLIT_TOP = 5;

export interface SplitSeries {
  /** Row key: `srv<i>` or `other` (server names may hold dots, which a chart would read as a path). */
  key: string;
  /** The server, or null for "other". */
  server: string | null;
  label: string;
  /** Total over the range (the ranking). */
  total: number;
}

export interface SplitChart {
  series: SplitSeries[];
  rows: ({ t: number } & Record<string, number>)[];
}

export function splitByServer(byServer: readonly TServerSplit[], measure: SplitMeasure, top = SPLIT_TOP): SplitChart {
  const ranked = byServer
    .map((b) => ({ b, total: b.series.reduce((sum, cell) => sum + cell[measure], 0) }))
    .filter((x) => x.total > 0)
    .sort((a, c) => c.total - a.total || a.b.server.localeCompare(c.b.server));
  // "other" only when it stands for two or more servers: a lone extra server is shown by name.
  const own = ranked.length > top + 1 ? ranked.slice(0, top) : ranked;
  const rest = ranked.slice(own.length);
  const series: SplitSeries[] = own.map((x, i) => ({ key: `srv${i}`, server: x.b.server, label: x.b.server, total: x.total }));
  if (rest.length > 0)
    series.push({
      key: 'other',
      server: null,
      label: `other (${rest.length} servers)`,
      total: rest.reduce((sum, x) => sum + x.total, 0),
    });
  const times = byServer[0]?.series.map((cell) => cell.t) ?? [];
  const rows = times.map((t, i) => {
    const row: { t: number } & Record<string, number> = { t: Date.parse(t) };
    own.forEach((x, j) => (row[`srv${j}`] = x.b.series[i]?.[measure] ?? 0));
    if (rest.length > 0) row.other = rest.reduce((sum, x) => sum + (x.b.series[i]?.[measure] ?? 0), 0);
    return row;
  });
  return { series, rows };
}
