// What the server answers to a resume (GET /mcp with Mcp-Session-Id, optional Last-Event-ID).
// - refusing: the pure `decideResume` of lib/boundary decides; at the upgrade boundary the stream
//   ends with a terminal `session-superseded` and the token is burned.
// - naive: the two failure variants of the design note (idle replay; a second negotiation).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { decideResume } from '@/lib/boundary/decide-resume';
import type { Session, SessionTable } from './session-table';
import { writeUpgradeAccepted } from './upgrade';

export function resumeSession(
  table: SessionTable,
  s: Session,
  req: IncomingMessage,
  res: ServerResponse,
  lastEventId: number | null,
): void {
  // A resume before we noticed the old connection die: that connection is dropped now.
  if (s.stream) table.dropped(s, s.stream, 'superseded_by_resume');
  const requestedAt = table.emit(s, 'resume.requested', { lastEventId });
  // The boundary by the server's own session table: upgrade-accepted durable, handshake
  // pending, and no cursor or one at/after the (original) pending upgrade.
  const atBoundary = s.state === 'pending' && (lastEventId === null || lastEventId >= s.negotiations[0]);
  if (atBoundary) s.record.boundaryAt ??= requestedAt;
  const firstBoundaryAnswer = atBoundary && s.record.answer === null;
  if (table.mode === 'refusing') refusingResume(table, s, req, res, lastEventId, atBoundary, firstBoundaryAnswer);
  else naiveResume(table, s, req, res, lastEventId, firstBoundaryAnswer);
}

function refusingResume(
  table: SessionTable,
  s: Session,
  req: IncomingMessage,
  res: ServerResponse,
  lastEventId: number | null,
  atBoundary: boolean,
  firstBoundaryAnswer: boolean,
): void {
  const decision = decideResume(s.timeline, { lastEventId });
  if ((decision.action === 'refuse') !== atBoundary) {
    table.ledger.anomalies.push(`${s.token}: decideResume=${decision.action} but own table says boundary=${atBoundary}`);
  }
  if (decision.action === 'refuse') {
    table.attach(s, req, res);
    table.endStream(s, {
      id: null,
      event: 'session-superseded',
      data: JSON.stringify({ reason: 'upgrade_boundary', upgradeEventId: decision.upgradeEventId }),
    });
    const at = table.emit(s, 'resume.refused', { reason: 'session-superseded' });
    s.record.refusedAt ??= at;
    if (firstBoundaryAnswer) {
      s.record.answer = 'refused';
      s.record.answeredAt = at;
    }
    table.terminate(s); // the token is burned: later requests for it get 404
    return;
  }
  if (decision.action === 'not_applicable') {
    res.writeHead(409, { connection: 'close' }).end();
    return;
  }
  table.replay(s, req, res, decision.fromEventId);
}

function naiveResume(
  table: SessionTable,
  s: Session,
  req: IncomingMessage,
  res: ServerResponse,
  lastEventId: number | null,
  firstBoundaryAnswer: boolean,
): void {
  if (s.state === 'pending' && lastEventId === null) {
    // Variant 2: a fresh stream for a reused token, and a second negotiation for it.
    table.attach(s, req, res);
    const at = table.emit(s, 'resume.accepted', { replayed: 0 });
    if (firstBoundaryAnswer) {
      s.record.answer = 'naive_resume';
      s.record.answeredAt = at;
    }
    const id = writeUpgradeAccepted(table, s);
    s.negotiations.push(id);
    table.emit(s, 'upgrade.accepted', { eventId: id, negotiation: s.negotiations.length });
    s.record.dual = true;
    return;
  }
  // Variant 1 (and every ordinary resume): replay what is after the cursor — at the
  // boundary that is nothing, and the stream stays open and idle.
  const at = table.replay(s, req, res, lastEventId);
  if (firstBoundaryAnswer) {
    s.record.answer = 'naive_resume';
    s.record.answeredAt = at;
  }
}
