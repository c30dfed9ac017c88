'use client';
// Four figures under the heading: how the boundary was answered, the deadlock or refusal latency,
// the renegotiation and the event count.
import type { TSessionView } from '@/lib/contract/api/sessions';
import { fmtDuration, fmtLatency, fmtTime, shortToken, type TimeZoneMode } from '@/lib/ui/format';

export function SessionCallouts({ session: s, eventCount, tz }: { session: TSessionView; eventCount: number; tz: TimeZoneMode }) {
  return (
    <div className="callouts">
      <div className="tile" style={{ cursor: 'default' }} data-testid="callout-outcome">
        <span className="tile-label">Boundary</span>
        <span className={`tile-value ${s.boundaryOutcome === 'naive_resume' ? 'bad-text' : ''}`} style={{ fontSize: 16 }}>
          {s.boundaryOutcome === null
            ? 'not entered'
            : s.boundaryOutcome === 'refused'
              ? 'refused ✓'
              : s.boundaryOutcome === 'naive_resume'
                ? 'naive resume ✗'
                : 'unanswered'}
        </span>
        <span className="tile-sub">
          {s.boundaryAt ? `entered ${fmtTime(s.boundaryAt, tz)}` : 'the client never asked to resume after the upgrade'}
        </span>
      </div>
      <div className="tile" style={{ cursor: 'default' }} data-testid="callout-latency">
        <span className="tile-label">{s.deadlock ? 'Deadlock' : 'Refusal latency'}</span>
        <span className={`tile-value ${s.deadlock ? 'bad-text' : ''}`} style={{ fontSize: 16 }}>
          {s.deadlock ? `${s.deadlock.endUnreported ? '≥ ' : ''}${fmtDuration(s.deadlock.durationMs)}` : fmtLatency(s.refusalLatencyMs)}
        </span>
        <span className="tile-sub">
          {s.deadlock
            ? `${fmtTime(s.deadlock.startedAt, tz)} → ${s.deadlock.endedAt ? fmtTime(s.deadlock.endedAt, tz) : s.deadlock.endUnreported ? 'end unreported' : 'still stuck'}`
            : s.refusalLatencyMs !== null
              ? 'resume.requested → resume.refused'
              : '—'}
        </span>
      </div>
      <div className="tile" style={{ cursor: 'default' }} data-testid="callout-renegotiation">
        <span className="tile-label">Renegotiation</span>
        <span className="tile-value" style={{ fontSize: 16 }}>
          {s.successorToken ? fmtLatency(s.renegotiationLatencyMs) : s.previousToken ? 'is a successor' : '—'}
        </span>
        <span className="tile-sub">
          {s.successorToken ? 'refusal → new session opened' : s.previousToken ? `of ${shortToken(s.previousToken, 20)}` : 'no new token'}
        </span>
      </div>
      <div className="tile" style={{ cursor: 'default' }}>
        <span className="tile-label">Events</span>
        <span className="tile-value" style={{ fontSize: 16 }}>
          {eventCount}
        </span>
        <span className="tile-sub">
          {s.dropCount} drop{s.dropCount === 1 ? '' : 's'}
          {s.dualNegotiationCount ? ` · ${s.dualNegotiationCount} dual` : ''}
        </span>
      </div>
    </div>
  );
}
