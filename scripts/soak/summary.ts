// The soak's verdicts (what failed, in words) and its human summary.
import type { SoakResult } from './soak';

const line = (label: string, value: unknown) => `  ${label.padEnd(26)} ${typeof value === 'string' ? value : JSON.stringify(value)}`;

/** What failed, in words; empty when the soak held. */
export function soakVerdicts(r: SoakResult): string[] {
  const out: string[] = [];
  const bad = Object.keys(r.ingest.answers).filter((s) => s !== '200' && s !== '503');
  if (bad.length) out.push(`ingest answers other than 200 and 503: ${bad.join(', ')}`);
  if (r.ingest.failed) out.push(`${r.ingest.failed} batches given up`);
  if (r.watchers.refused || r.watchers.endedByServer)
    out.push(`watchers refused ${r.watchers.refused}, dropped ${r.watchers.endedByServer}`);
  if (Object.keys(r.dashboards.answers).some((s) => s !== '200')) out.push(`dashboard answers ${JSON.stringify(r.dashboards.answers)}`);
  if (!r.lossless.pass) out.push('the query API totals differ from what was acknowledged');
  if (!r.p95.pass) out.push(`a p95 window above ${r.p95.allowedRatio} × the first`);
  return out;
}

export function soakSummary(r: SoakResult): string {
  const s = r.slopesPerMinute;
  return [
    `soak ${r.provider}: ${r.minutes} min at ${r.rate} ev/s (max ${r.maxRate.eventsPerSecond ?? '-'} ${r.maxRate.source}), from ${r.at}${r.seededEvents ? `, on ${r.seededEvents} events seeded` : ''}`,
    line('load average before/after', `${r.machine.loadavgBefore.join(' ')} / ${r.machine.loadavgAfter.join(' ')}`),
    line(
      'ingest',
      `${r.ingest.accepted} events accepted (${r.ingest.achievedRate} ev/s), ${r.ingest.requests} requests, ${r.ingest.retries} retries, answers ${JSON.stringify(r.ingest.answers)}, behind schedule ≤ ${r.ingest.behindMs} ms`,
    ),
    line('ingest latency ms', r.ingest.latencyMs),
    ...r.p95.windows.map((w) =>
      line(`p95 ${w.fromMin}–${w.toMin} min`, `${w.p95} ms (×${w.ratio}, p50 ${w.p50}, ${w.requests} requests, load ${w.load1})`),
    ),
    line('slopes per min, whole', s.whole),
    line('slopes per min, after warm-up', s.afterWarmup),
    line(
      'first → last sample',
      `rss ${r.samples[0].rssMb} → ${r.samples.at(-1)!.rssMb} MB, heap ${r.samples[0].heapUsedMb} → ${r.samples.at(-1)!.heapUsedMb} MB, fds ${r.samples[0].openFds} → ${r.samples.at(-1)!.openFds}, db ${r.samples[0].dbConnections} → ${r.samples.at(-1)!.dbConnections}`,
    ),
    line('watchers', r.watchers),
    line('dashboards', r.dashboards),
    line('lossless', {
      pass: r.lossless.pass,
      expected: r.lossless.expected,
      stats: r.lossless.stats,
      accepted: r.lossless.acceptedByAnswers,
    }),
  ].join('\n');
}
