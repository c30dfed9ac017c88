// One session: its summary, full ordered timeline (from Event) and renegotiation chain.
import type { Db } from '@/lib/db/client';
import { ApiError } from '@/lib/http/api-error';
import type { SessionRow } from '@/lib/store/session-row';
import type { TChainLink, TSessionDetailResponse, TTimelineEvent } from '@/lib/contract/api/session-detail';
import { toIsoMs } from '@/lib/contract/timestamp';
import { toChainLink, toSessionView } from './session-view';

export const MAX_CHAIN_HOPS = 50;

interface EventRow {
  eventId: string;
  type: string;
  at: number;
  seq: number | null;
  data: string;
  receivedAt: number;
}

/** The timeline order of lib/boundary/timeline-order.ts: at, then seq (absent first), then id (code units). */
export function compareTimeline(a: EventRow, b: EventRow): number {
  if (a.at !== b.at) return a.at - b.at;
  const sa = a.seq ?? -1;
  const sb = b.seq ?? -1;
  if (sa !== sb) return sa - sb;
  return a.eventId < b.eventId ? -1 : a.eventId > b.eventId ? 1 : 0;
}

function parseData(text: string): Record<string, unknown> {
  try {
    const v = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}

async function sessionRow(db: Db, server: string, token: string): Promise<SessionRow | null> {
  const rows = await db.sql.query<SessionRow>('SELECT * FROM "Session" WHERE "server" = ? AND "token" = ?', [server, token]);
  return rows[0] ?? null;
}

/** The predecessor of `row`: a session with token = previousToken, preferring the one that names `row` as its successor. */
async function predecessorOf(db: Db, row: SessionRow): Promise<SessionRow | null> {
  if (!row.previousToken) return null;
  const rows = await db.sql.query<SessionRow>('SELECT * FROM "Session" WHERE "token" = ?', [row.previousToken]);
  if (rows.length === 0) return null;
  const named = rows.find((r) => r.successorToken === row.token && r.successorServer === row.server);
  if (named) return named;
  const same = rows.find((r) => r.server === row.server);
  return same ?? [...rows].sort((a, b) => (a.server < b.server ? -1 : 1))[0];
}

export async function getSessionDetail(db: Db, server: string, token: string, nowMs: number, thresholdMs: number): Promise<TSessionDetailResponse> {
  const row = await sessionRow(db, server, token);
  if (!row) throw new ApiError(404, 'session_not_found', `no session ${JSON.stringify(token)} on server ${JSON.stringify(server)}`);

  const events = await db.sql.query<EventRow>(
    'SELECT "eventId", "type", "at", "seq", "data", "receivedAt" FROM "Event" WHERE "server" = ? AND "token" = ?',
    [server, token],
  );
  events.forEach((e) => {
    e.at = Number(e.at);
    e.seq = e.seq === null ? null : Number(e.seq);
  });
  events.sort(compareTimeline);
  const timeline: TTimelineEvent[] = events.map((e) => ({
    id: e.eventId,
    type: e.type,
    at: toIsoMs(e.at),
    seq: e.seq,
    data: parseData(e.data),
    receivedAt: toIsoMs(Number(e.receivedAt)),
  }));

  const seen = new Set<string>([`${row.server}\u0000${row.token}`]);
  let truncated = false;
  const visit = (r: SessionRow): boolean => {
    const key = `${r.server}\u0000${r.token}`;
    if (seen.has(key) || seen.size > 2 * MAX_CHAIN_HOPS) {
      truncated = true;
      return false;
    }
    seen.add(key);
    return true;
  };

  const predecessors: TChainLink[] = [];
  for (let cur = row, hops = 0; ; hops++) {
    if (hops >= MAX_CHAIN_HOPS) {
      truncated ||= cur.previousToken !== null;
      break;
    }
    const prev = await predecessorOf(db, cur);
    if (!prev || !visit(prev)) break;
    predecessors.unshift(toChainLink(prev, nowMs, thresholdMs));
    cur = prev;
  }
  const successors: TChainLink[] = [];
  for (let cur = row, hops = 0; cur.successorToken && cur.successorServer; hops++) {
    if (hops >= MAX_CHAIN_HOPS) {
      truncated = true;
      break;
    }
    const next = await sessionRow(db, cur.successorServer, cur.successorToken);
    if (!next || !visit(next)) break;
    successors.push(toChainLink(next, nowMs, thresholdMs));
    cur = next;
  }

  return { session: toSessionView(row, nowMs, thresholdMs), timeline, chain: { predecessors, successors, truncated }, now: toIsoMs(nowMs) };
}
