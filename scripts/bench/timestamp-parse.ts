// `npm run bench -- timestamp-parse [--events 100000] [--reads 3] [--rounds 10]`: the contract's
// timestamp parse as ingest meets it (fresh strings from JSON, each read a few times by validation
// and the fold) by the character scan (lib/contract/timestamp.ts) against the regular expression
// behind its memo, the form it replaced (tests/support/timestamp-grammar.ts). The two alternate
// round by round in one process; the first two rounds warm up and are not counted.
import { parseTimestampMs } from '@/lib/contract/timestamp';
import { memoizedGrammar } from '../../tests/support/timestamp-grammar';
import { machine, num, round, type Args } from './common';

export async function benchTimestampParse(args: Args) {
  const events = num(args, 'events', 100_000);
  const reads = num(args, 'reads', 3);
  const rounds = num(args, 'rounds', 10);
  const loadBefore = machine().loadavg;
  const variants: [string, (s: string) => number | null][] = [
    ['regex behind a memo (before)', memoizedGrammar()],
    ['character scan (now)', parseTimestampMs],
  ];
  const ns = new Map<string, number[]>(variants.map(([name]) => [name, []]));
  const start = Date.UTC(2026, 11, 5);
  let next = 0;
  let sink = 0;
  for (let r = 0; r < rounds + 2; r++)
    for (const [name, parse] of r % 2 ? [...variants].reverse() : variants) {
      // New strings every round, as each batch's JSON.parse gives them: a memo hit only within a batch.
      const ats: string[] = JSON.parse(JSON.stringify(Array.from({ length: events }, () => new Date(start + next++ * 37).toISOString())));
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < ats.length; i += 500)
        for (let k = 0; k < reads; k++) for (let j = i; j < Math.min(i + 500, ats.length); j++) sink += parse(ats[j]) ?? 0;
      const took = Number(process.hrtime.bigint() - t0);
      if (r >= 2) ns.get(name)!.push(took / events);
    }
  if (sink === 0) throw new Error('nothing parsed');
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const results = variants.map(([name]) => ({
    variant: name,
    nsPerEvent: round(median(ns.get(name)!), 0),
    rounds: ns.get(name)!.map((x) => round(x, 0)),
  }));
  return {
    bench: 'timestamp-parse',
    events,
    readsPerEvent: reads,
    machine: { ...machine(), loadavg: loadBefore, loadavgAfter: machine().loadavg },
    results,
    ratio: round(results[1].nsPerEvent / results[0].nsPerEvent, 3),
  };
}
