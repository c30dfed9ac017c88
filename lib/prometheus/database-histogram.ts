// A Prometheus histogram whose values come from the database at scrape time: cumulative bucket
// counts, count and sum per server, derived from the rollups' per-bucket counters. prom-client's
// Histogram only observes values one by one (per instance, reset at restart), so this is a
// metric object of its own that the Registry formats like any other.
// MetricType is declared in prom-client's types only (no runtime export): use its string value.
import type { MetricType } from 'prom-client';

interface SampleValue {
  metricName: string;
  labels: Record<string, string | number>;
  value: number;
}

export interface HistogramSnapshot {
  server: string;
  /** [upper bound in seconds, cumulative count] in ascending order, without +Inf. */
  buckets: readonly (readonly [number, number])[];
  count: number;
  sumSeconds: number;
}

export class DatabaseHistogram {
  readonly type = 'histogram' as unknown as MetricType;
  readonly aggregator = 'sum' as const;
  constructor(
    readonly name: string,
    readonly help: string,
    private readonly read: () => Promise<HistogramSnapshot[]>,
  ) {}

  async get(): Promise<{ name: string; help: string; type: MetricType; aggregator: 'sum'; values: SampleValue[] }> {
    const values: SampleValue[] = [];
    for (const s of await this.read()) {
      for (const [le, n] of s.buckets) values.push({ metricName: `${this.name}_bucket`, labels: { server: s.server, le }, value: n });
      values.push({ metricName: `${this.name}_bucket`, labels: { server: s.server, le: '+Inf' }, value: s.count });
      values.push({ metricName: `${this.name}_sum`, labels: { server: s.server }, value: s.sumSeconds });
      values.push({ metricName: `${this.name}_count`, labels: { server: s.server }, value: s.count });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  reset(): void {
    // Values live in the database.
  }
}
