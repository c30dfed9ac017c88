// Streaming export of the whole filtered session set as CSV or a JSON array.
import { SESSION_CSV_COLUMNS, type ExportFormat, type TSessionView } from '@/lib/contract/api/sessions';

/** RFC 4180 quoting; cells starting with = + - @ are prefixed with ' so spreadsheets don't run them as formulas. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let s = String(value);
  if (/^[=+\-@\t\r]/.test(s) && typeof value === 'string') s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function csvRecord(v: TSessionView): string {
  const flat: Record<(typeof SESSION_CSV_COLUMNS)[number], unknown> = {
    server: v.server,
    token: v.token,
    state: v.state,
    flags: v.flags.join(' '),
    boundaryOutcome: v.boundaryOutcome,
    openedAt: v.openedAt,
    firstEventAt: v.firstEventAt,
    lastEventAt: v.lastEventAt,
    eventCount: v.eventCount,
    refusalLatencyMs: v.refusalLatencyMs,
    deadlockStartedAt: v.deadlock?.startedAt,
    deadlockEndedAt: v.deadlock?.endedAt,
    deadlockDurationMs: v.deadlock?.durationMs,
    deadlockOngoing: v.deadlock ? v.deadlock.ongoing : null,
    previousToken: v.previousToken,
    successorToken: v.successorToken,
    successorServer: v.successorServer,
    successorOpenedAt: v.successorOpenedAt,
    renegotiationLatencyMs: v.renegotiationLatencyMs,
    boundaryAt: v.boundaryAt,
    answeredAt: v.answeredAt,
    refusedAt: v.refusedAt,
    naiveResumeAt: v.naiveResumeAt,
    dualNegotiationAt: v.dualNegotiationAt,
    dualNegotiationCount: v.dualNegotiationCount,
    burnedTokenReuseAt: v.burnedTokenReuseAt,
    dropCount: v.dropCount,
    version: v.version,
    instance: v.instance,
    deadlockCandidateSince: v.deadlockCandidateSince,
    updatedAt: v.updatedAt,
  };
  return SESSION_CSV_COLUMNS.map((c) => csvCell(flat[c])).join(',') + '\r\n';
}

/** A byte stream of the export; pulls rows from the database only as fast as the client reads. */
export function exportStream(rows: AsyncIterable<TSessionView>, format: ExportFormat): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const it = rows[Symbol.asyncIterator]();
  let started = false;
  let first = true;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(format === 'csv' ? SESSION_CSV_COLUMNS.join(',') + '\r\n' : '['));
      }
      let chunk = '';
      for (let i = 0; i < 200; i++) {
        const next = await it.next();
        if (next.done) {
          if (format === 'json') chunk += first ? ']\n' : '\n]\n';
          if (chunk) controller.enqueue(encoder.encode(chunk));
          controller.close();
          return;
        }
        if (format === 'csv') chunk += csvRecord(next.value);
        else {
          chunk += (first ? '\n' : ',\n') + JSON.stringify(next.value);
          first = false;
        }
      }
      controller.enqueue(encoder.encode(chunk));
    },
    async cancel() {
      await it.return?.(undefined);
    },
  });
}
