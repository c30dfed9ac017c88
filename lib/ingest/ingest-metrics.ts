// What one ingest request adds to this instance's Prometheus families (lib/prometheus).
import { appMetrics } from '@/lib/prometheus/registry';
import type { IngestResult } from './ingest-events';

export function recordIngestRequest(o: {
  server: string;
  status: number;
  reason: string;
  seconds: number;
  result: IngestResult | null;
}): void {
  const m = appMetrics();
  m.ingestRequests.inc({ status: String(o.status), reason: o.reason });
  m.ingestBatchDuration.observe(o.seconds);
  if (o.result) {
    // Only accepted batches get here, so the server name is verified (bounded label values).
    m.ingestEvents.inc({ server: o.server, result: 'accepted' }, o.result.accepted);
    m.ingestEvents.inc({ server: o.server, result: 'duplicate' }, o.result.duplicates);
    m.ingestEvents.inc({ server: o.server, result: 'rejected' }, o.result.rejected.length);
  }
}
