// One session: its summary, full ordered timeline (from Event) and renegotiation chain.
import type { Db } from '@/lib/db/client';
import type { SqlExecutor } from '@/lib/db/sql';
import { ApiError } from '@/lib/http/api-error';
import type { SessionRow } from '@/lib/store/session-row';
import { readSessionEvents } from '@/lib/store/events';
import { compareTimelineKeys } from '@/lib/boundary/timeline-order';
import { findSession, sessionsWithTokens } from '@/lib/store/sessions';
import { serverKnown } from '@/lib/store/servers/server-known';
import type { TChainLink, TSessionDetailResponse, TTimelineEvent } from '@/lib/contract/api/session-detail';
import { toIsoMs } from '@/lib/contract/timestamp';
import { toChainLink, toSessionView } from './session-view';

export const MAX_CHAIN_HOPS = 50;

function parseData(text: string): Record<string, unknown> {
  try {
    const v = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}

/** The predecessor of `row`: a session with token = previousToken, preferring the one that names `row` as its successor. */
async function predecessorOf(sql: SqlExecutor, row: SessionRow): Promise<SessionRow | null> {
  if (!row.previousToken) return null;
  const rows = await sessionsWithTokens(sql, [row.previousToken]);
  if (rows.length === 0) return null;
  const named = rows.find((r) => r.successorToken === row.token && r.successorServer === row.server);
  if (named) return named;
  const same = rows.find((r) => r.server === row.server);
  return same ?? [...rows].sort((a, b) => (a.server < b.server ? -1 : 1))[0];
}

/**
 * Read in one snapshot (Sql.snapshot): ingest commits a session's summary with its events, so the
 * page never shows a summary older (or newer) than its own timeline, on the primary or on a
 * replica that is replaying commits while we read.
 */
export function getSessionDetail(
  db: Db,
  server: string,
  token: string,
  nowMs: number,
  thresholdMs: number,
  maxMs: number,
): Promise<TSessionDetailResponse> {
  return db.sql.snapshot((sql) => readDetail(sql, server, token, nowMs, thresholdMs, maxMs));
}

async function readDetail(
  sql: SqlExecutor,
  server: string,
  token: string,
  nowMs: number,
  thresholdMs: number,
  maxMs: number,
): Promise<TSessionDetailResponse> {
  const row = await findSession(sql, server, token);
  if (!row) {
    // Only on the miss: a mistyped server name is a different mistake from a token it never saw.
    if (!(await serverKnown(sql, server)))
      throw new ApiError(
        404,
        'server_not_found',
        `no server ${JSON.stringify(server)}: none is configured by that name and none has reported`,
      );
    throw new ApiError(404, 'session_not_found', `no session ${JSON.stringify(token)} on server ${JSON.stringify(server)}`);
  }

  // The stored events in the timeline order (lib/boundary), keyed once rather than in every comparison.
  const events = (await readSessionEvents(sql, server, token))
    .map((e) => ({ atMs: e.at, seq: e.seq, id: e.eventId, stored: e }))
    .sort(compareTimelineKeys)
    .map((k) => k.stored);
  const timeline: TTimelineEvent[] = events.map((e) => ({
    id: e.eventId,
    type: e.type,
    at: toIsoMs(e.at),
    seq: e.seq,
    data: parseData(e.data),
    receivedAt: toIsoMs(e.receivedAt),
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
    const prev = await predecessorOf(sql, cur);
    if (!prev || !visit(prev)) break;
    predecessors.unshift(toChainLink(prev, nowMs, thresholdMs, maxMs));
    cur = prev;
  }
  const successors: TChainLink[] = [];
  for (let cur = row, hops = 0; cur.successorToken && cur.successorServer; hops++) {
    if (hops >= MAX_CHAIN_HOPS) {
      truncated = true;
      break;
    }
    const next = await findSession(sql, cur.successorServer, cur.successorToken);
    if (!next || !visit(next)) break;
    successors.push(toChainLink(next, nowMs, thresholdMs, maxMs));
    cur = next;
  }

  return {
    session: toSessionView(row, nowMs, thresholdMs, maxMs),
    timeline,
    chain: { predecessors, successors, truncated },
    now: toIsoMs(nowMs),
    deadlockMaxMs: maxMs,
  };
}
