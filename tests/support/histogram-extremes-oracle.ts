// The exact min/max every latency-histogram cell must hold ("minMs", "maxMs"): those of the
// latencies its Session rows put in it now, by the pure contributions, whatever arrival order,
// late events or recomputes led there. Cells that count nothing are not compared.
import assert from 'node:assert/strict';
import { sessionContributions } from '@/lib/metrics/rollup-contributions';
import { parseHistogramKey } from '@/lib/metrics/latency-histogram';
import { sessionAnchors, type SessionRow } from '@/lib/store/session-row';

type Query = <T = any>(text: string, params?: readonly unknown[]) => Promise<T[]>;

export async function assertHistogramExtremes(query: Query): Promise<void> {
  const minutes = new Map<string, [number, number]>();
  const quarters = new Map<string, [number, number]>();
  const widen = (m: Map<string, [number, number]>, k: string, v: number) => {
    const e = m.get(k);
    m.set(k, e ? [Math.min(e[0], v), Math.max(e[1], v)] : [v, v]);
  };
  for (const row of await query<SessionRow>('SELECT * FROM "Session" WHERE "synthetic" = 0')) {
    // Drivers may hand BIGINT back as text: the anchors are numbers.
    const anchors = Object.fromEntries(
      Object.entries(sessionAnchors(row)).map(([k, v]) => [
        k,
        typeof v === 'string' && k !== 'boundaryOutcome' && k !== 'flags' ? Number(v) : typeof v === 'bigint' ? Number(v) : v,
      ]),
    ) as ReturnType<typeof sessionAnchors>;
    for (const c of sessionContributions(anchors)) {
      const h = parseHistogramKey(c.column);
      if (!h || c.sample === undefined) continue;
      widen(minutes, `${c.minute}|${row.server}|${h.metric}|${h.bucket}`, c.sample);
      widen(quarters, `${Math.floor(c.minute / 900_000) * 900_000}|${h.metric}|${h.bucket}`, c.sample);
    }
  }
  const stored = async (table: string, keyOf: (r: Record<string, unknown>) => string) => {
    const out = new Map<string, [number, number]>();
    for (const r of await query<Record<string, unknown>>(`SELECT * FROM "${table}" WHERE "count" > 0`))
      out.set(keyOf(r), [Number(r.minMs), Number(r.maxMs)]);
    return out;
  };
  const storedMinutes = await stored('LatencyHistogram', (r) => `${Number(r.minute)}|${r.server}|${r.metric}|${Number(r.bucket)}`);
  const storedQuarters = await stored('LatencyHistogramQuarter', (r) => `${Number(r.minute)}|${r.metric}|${Number(r.bucket)}`);
  assert.deepEqual(storedMinutes, minutes, 'each LatencyHistogram cell keeps the exact min/max of its sessions');
  assert.deepEqual(storedQuarters, quarters, 'each LatencyHistogramQuarter cell keeps the exact min/max of its sessions');
}
