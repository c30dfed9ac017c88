// Realistic fleets of MCP-server session timelines for the benchmarks: whole sessions of
// 4-8 events, a share of boundary resumes (refused by careful servers, answered with a naive
// resume by "naive" servers), dual negotiations, burned-token reuse and renegotiation chains
// (a refused session's client opens a successor naming it as previousToken).
// Deterministic for a given seed so ingest and the raw-driver comparison see the same rows.

import { createRng } from '@/lib/wire/random';

export interface BenchEvent {
  id: string;
  token: string;
  type: string;
  at: string;
  data: Record<string, unknown>;
}

export interface BenchSession {
  server: string;
  token: string;
  events: BenchEvent[];
  /** Set when a later session in the fleet names this one as previousToken. */
  successor: { server: string; token: string; openedAt: string } | null;
}

export interface FleetOptions {
  /** Stop once about this many events were produced. */
  events: number;
  servers: number;
  /** Timelines start uniformly in [fromMs, toMs). */
  fromMs: number;
  toMs: number;
  /** Share of servers that answer boundary resumes naively (resume.accepted). */
  naiveServerShare?: number;
  /** Prefix for tokens and event ids (unique per run so reruns never collide). */
  prefix: string;
  seed?: number;
  /** Average events per session wanted (≥ ~5.4, the mix's own average): extra drop/resume cycles pad healthy sessions. */
  eventsPerSession?: number;
}

export const serverName = (i: number) => `bench-${String(i).padStart(2, '0')}`;

type Step = [type: string, dt: number, data?: Record<string, unknown>];

/**
 * Generates sessions server by server in start-time order. Callers that need the events
 * as a stream (ingest) flatten sessions; the seeder uses `successor` to summarize exactly
 * as ingest would once the whole fleet is stored.
 */
export function* generateFleet(o: FleetOptions): Generator<BenchSession> {
  const rand = createRng(o.seed ?? 42);
  const naiveShare = o.naiveServerShare ?? 0.2;
  const naiveServers = new Set<number>();
  for (let s = 0; s < o.servers; s++) if (rand() < naiveShare || (s === o.servers - 1 && naiveServers.size === 0)) naiveServers.add(s);
  const perServer = Math.ceil(o.events / o.servers);
  const span = o.toMs - o.fromMs;
  let n = 0;
  for (let s = 0; s < o.servers && n < o.events; s++) {
    const server = serverName(s);
    const naive = naiveServers.has(s);
    let produced = 0;
    let seq = 0;
    // Sessions start at increasing times across the span (per server), with jitter.
    const BASE = 5.4;
    const perSession = Math.max(BASE, o.eventsPerSession ?? BASE);
    // Healthy and plain-SSE sessions (~62% of them) carry the extra 3-event drop/resume cycles.
    const cycles = (perSession - BASE) / 3 / 0.62;
    const pad = (steps: Step[]) => {
      const k = Math.floor(cycles + rand());
      for (let i = 0; i < k; i++)
        steps.push(
          ['stream.dropped', 10_000 + rand() * 60_000, { reason: 'idle' }],
          ['resume.requested', 50 + rand() * 300, { lastEventId: null }],
          ['resume.accepted', 10 + rand() * 40, { replayed: 1 }],
        );
    };
    const approxSessions = Math.max(1, Math.round(perServer / perSession));
    let t = o.fromMs + rand() * (span / approxSessions);
    // A pending renegotiation: the successor opens shortly after its predecessor was refused.
    let pendingPredecessor: BenchSession | null = null;
    while (produced < perServer && n < o.events) {
      const token = `${o.prefix}${s.toString(36)}-${(seq++).toString(36)}`;
      const start = Math.min(Math.floor(t), o.toMs - 10 * 60_000);
      // Spread the rest of this server's sessions over the rest of the window (self-correcting).
      const left = Math.max(1, (perServer - produced) / perSession);
      t += ((o.toMs - 10 * 60_000 - t) / left) * (0.5 + rand());
      const up = 1 + Math.floor(rand() * 40);
      const steps: Step[] = [];
      const previousToken = pendingPredecessor ? pendingPredecessor.token : undefined;
      steps.push(['session.opened', 0, previousToken ? { previousToken } : {}]);
      const r = rand();
      let refusedHere = false;
      if (r < 0.5) {
        // Healthy upgrade, sometimes a drop and a resume after the WebSocket is bound.
        steps.push(['upgrade.accepted', 40 + rand() * 60, { eventId: up }], ['upgrade.completed', 30 + rand() * 40, {}]);
        if (rand() < 0.4)
          steps.push(
            ['stream.dropped', 5_000 + rand() * 60_000, { reason: 'reset' }],
            ['resume.requested', 50 + rand() * 200, { lastEventId: up + 3 }],
            ['resume.accepted', 10 + rand() * 40, { replayed: 2 }],
          );
        pad(steps);
        steps.push(['session.closed', 1_000 + rand() * 120_000, { reason: 'client' }]);
      } else if (r < 0.62) {
        // Plain SSE session with a drop and a resume.
        steps.push(
          ['stream.dropped', 2_000 + rand() * 30_000, { reason: 'idle' }],
          ['resume.requested', 100 + rand() * 500, { lastEventId: null }],
          ['resume.accepted', 20 + rand() * 50, { replayed: 0 }],
        );
        pad(steps);
        steps.push(['session.closed', 5_000 + rand() * 60_000, {}]);
      } else if (r < 0.9) {
        // Boundary resume: durable upgrade-accepted, drop before the handshake completes.
        steps.push(
          ['upgrade.accepted', 40 + rand() * 60, { eventId: up }],
          ['stream.dropped', 20 + rand() * 200, { reason: 'reset' }],
          ['resume.requested', 30 + rand() * 300, { lastEventId: rand() < 0.5 ? up : null }],
        );
        if (naive) {
          steps.push(['resume.accepted', 20 + rand() * 80, { replayed: 0 }]);
          // Ended deadlock (timeout) most of the time; some are left unended (ongoing candidates).
          if (rand() < 0.8) steps.push(['session.timeout', 30_000 + rand() * 270_000, { idleMs: 300_000 }]);
        } else {
          steps.push(['resume.refused', 5 + rand() * 180, { reason: 'session-superseded' }]);
          refusedHere = true;
          if (rand() < 0.05) steps.push(['upgrade.accepted', 200 + rand() * 300, { eventId: up + 1 }]); // burned token reuse
          steps.push(['session.closed', 10 + rand() * 50, { reason: 'refused' }]);
        }
      } else {
        // Dual negotiation: a second upgrade while the first is pending (or a 409 reject).
        steps.push(['upgrade.accepted', 40 + rand() * 60, { eventId: up }]);
        if (rand() < 0.5) steps.push(['upgrade.accepted', 10 + rand() * 50, { eventId: up + 1 }]);
        else steps.push(['upgrade.rejected', 10 + rand() * 50, { status: 409 }]);
        steps.push(['upgrade.completed', 30 + rand() * 60, {}], ['session.closed', 2_000 + rand() * 60_000, {}]);
      }
      let at = start;
      const events: BenchEvent[] = steps.map(([type, dt, data], i) => {
        at += Math.round(dt);
        return { id: `${token}.${i}`, token, type, at: new Date(at).toISOString(), data: data ?? {} };
      });
      const session: BenchSession = { server, token, events, successor: null };
      if (pendingPredecessor) {
        pendingPredecessor.successor = { server, token, openedAt: events[0].at };
        // The predecessor is yielded only now, with its successor known.
        yield pendingPredecessor;
        pendingPredecessor = null;
      }
      produced += events.length;
      n += events.length;
      // ~60% of refused clients renegotiate: the next session of this server becomes the successor.
      if (refusedHere && rand() < 0.6) {
        // Successor opens 20-400 ms after the refusal: pull the next session's start to then.
        t = at + 20 + rand() * 380;
        pendingPredecessor = session;
      } else {
        yield session;
      }
    }
    if (pendingPredecessor) yield pendingPredecessor;
  }
}
