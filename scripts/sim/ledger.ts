// The fleet's own record of what happened, kept independently of Doorwatch: the servers write
// what they did (with the exact millisecond timestamps they report), the clients what they saw,
// the injector what it did. Figures are computed from here and compared with Doorwatch's.
import { summarizeLatencies } from '@/lib/metrics/percentiles';

export interface TokenRecord {
  server: string;
  token: string;
  openedAt: number;
  previousToken: string | null;
  drops: number;
  /** First resume that arrived in the (1)∧(2)∧(3) state, by the server's own session table. */
  boundaryAt: number | null;
  /** Answer to that boundary resume. */
  answer: 'refused' | 'naive_resume' | null;
  answeredAt: number | null;
  refusedAt: number | null;
  /** A second upgrade-accepted while one was pending, or a 409 for the token. */
  dual: boolean;
  completed: boolean;
  timedOutAt: number | null;
  /** `session.closed`: when and why (client_close, shutdown, websocket_<code>). */
  closedAt: number | null;
  closeReason: string | null;
  successorOpenedAt: number | null;
}

export interface ClientCounts {
  sessions: number;
  deadlocks: number;
  idleDeadlocks: number;
  dualDeadlocks: number;
  renegotiations: number;
  dualRejections: number;
  websocketSessions: number;
  lost: number;
}

export interface FleetFigures {
  resets: number;
  drops: number;
  sessions: number;
  boundary: number;
  refused: number;
  naiveResumes: number;
  deadlocks: number;
  dualNegotiations: number;
  renegotiations: number;
  /** renegotiations / resets (null without resets). */
  renegotiationRate: number | null;
  renegotiationMs: { p50: number | null; p95: number | null; max: number | null };
  under200ms: number;
  refusalLatencyMs: { p50: number | null; p95: number | null };
}

/**
 * A deadlock exactly as Doorwatch defines it (docs/contract.md §3, lib/boundary/session-state.ts):
 * a naive answer to a boundary resume, made while the upgrade was pending, not followed by
 * `upgrade.completed`; it ENDS at the first `session.timeout`, `session.closed` or
 * `resume.refused` after it — whichever ended the session, not only the idle timeout. Only ended
 * deadlocks are returned: the fleet reads its figures after `stop()`, when every session has
 * ended (Doorwatch's `ongoing` deadlocks depend on its threshold and the reader's clock).
 *
 * The reference server answers a boundary resume only while the upgrade is pending (that is
 * what makes it a boundary resume), and a session ends exactly once, after which its token is
 * unknown to the server (no later completion). So: naive answer, no completion, and the one
 * terminating event the session had.
 */
export function deadlockOf(r: TokenRecord): { startedAt: number; endedAt: number } | null {
  if (r.answer !== 'naive_resume' || r.answeredAt === null || r.completed) return null;
  const endedAt = r.timedOutAt ?? r.closedAt ?? r.refusedAt;
  return endedAt === null ? null : { startedAt: r.answeredAt, endedAt };
}

export class Ledger {
  readonly tokens = new Map<string, TokenRecord>();
  readonly client: ClientCounts = {
    sessions: 0,
    deadlocks: 0,
    idleDeadlocks: 0,
    dualDeadlocks: 0,
    renegotiations: 0,
    dualRejections: 0,
    websocketSessions: 0,
    lost: 0,
  };
  resets = 0;
  /** Server-side consistency problems (should stay empty). */
  readonly anomalies: string[] = [];

  opened(server: string, token: string, at: number, previousToken: string | null): void {
    this.tokens.set(token, {
      server,
      token,
      openedAt: at,
      previousToken,
      drops: 0,
      boundaryAt: null,
      answer: null,
      answeredAt: null,
      refusedAt: null,
      dual: false,
      completed: false,
      timedOutAt: null,
      closedAt: null,
      closeReason: null,
      successorOpenedAt: null,
    });
    if (previousToken !== null) {
      const prev = this.tokens.get(previousToken);
      if (prev) prev.successorOpenedAt ??= at;
    }
  }

  get(token: string): TokenRecord | undefined {
    return this.tokens.get(token);
  }

  /** Figures for the given servers (all when omitted). */
  figures(servers?: readonly string[]): FleetFigures {
    const pick = (r: TokenRecord) => !servers || servers.includes(r.server);
    let drops = 0;
    let sessions = 0;
    let boundary = 0;
    let refused = 0;
    let naive = 0;
    let deadlocks = 0;
    let dual = 0;
    let renegotiations = 0;
    let under200 = 0;
    const reneg: number[] = [];
    const refusal: number[] = [];
    for (const r of this.tokens.values()) {
      if (!pick(r)) continue;
      sessions += 1;
      drops += r.drops;
      if (r.boundaryAt !== null) boundary += 1;
      if (r.answer === 'refused') {
        refused += 1;
        refusal.push(r.answeredAt! - r.boundaryAt!);
      }
      if (r.answer === 'naive_resume') naive += 1;
      if (deadlockOf(r) !== null) deadlocks += 1;
      if (r.dual) dual += 1;
      // A renegotiation counts for the refused session (like Doorwatch: the predecessor's server).
      if (r.successorOpenedAt !== null) {
        renegotiations += 1;
        if (r.refusedAt !== null) {
          const ms = r.successorOpenedAt - r.refusedAt;
          reneg.push(ms);
          if (ms <= 200) under200 += 1; // ≤, as Doorwatch counts it (Prometheus le)
        }
      }
    }
    const rs = summarizeLatencies(reneg);
    const fs = summarizeLatencies(refusal);
    const resets = servers ? drops : this.resets;
    return {
      resets,
      drops,
      sessions,
      boundary,
      refused,
      naiveResumes: naive,
      deadlocks,
      dualNegotiations: dual,
      renegotiations,
      renegotiationRate: resets === 0 ? null : renegotiations / resets,
      renegotiationMs: { p50: rs.p50, p95: rs.p95, max: rs.max },
      under200ms: under200,
      refusalLatencyMs: { p50: fs.p50, p95: fs.p95 },
    };
  }
}
