// Random valid session timelines for the fault suite: the property tests' history generator
// (tests/unit/support/histories.ts) sampled with a fixed seed, each history given its own token
// (and event ids), a start time spread over a window, and sometimes a predecessor among the
// earlier tokens (renegotiation chains, also across servers).
import fc from 'fast-check';
import type { DoorwatchEvent } from '@/lib/contract/event';
import { createRng } from '@/lib/wire/random';
import { buildHistory, historySpecArb } from '../unit/support/histories';
import { T0 } from '../unit/support/timeline';

export interface TimelineOptions {
  count: number;
  seed: number;
  /** Tokens are `${prefix}-${i}` (unique per test so reruns never collide). */
  prefix: string;
  servers: readonly string[];
  /** At most this many steps per history (a step is 1–2 events; the opening event comes on top). */
  maxSteps: number;
  /** Timelines start uniformly in [T0, T0 + spreadMs). */
  spreadMs: number;
}

/** One sender's record of one event: which server reported it. */
export interface SentEvent {
  server: string;
  event: DoorwatchEvent;
}

/** The timelines in order (each token's events in time order; tokens one after the other). */
export function randomTimelines(o: TimelineOptions): SentEvent[][] {
  const rand = createRng(o.seed);
  const specs = fc.sample(historySpecArb, { seed: o.seed, numRuns: o.count });
  return specs.map((spec, i) => {
    const token = `${o.prefix}-${i}`;
    const previousToken = spec.previousToken !== null && i > 0 ? `${o.prefix}-${Math.floor(rand() * i)}` : null;
    const steps = spec.steps.slice(0, Math.floor(rand() * (o.maxSteps + 1)));
    // A timeline has at least one event: without steps, the session is at least opened.
    const history = buildHistory({ ...spec, token, previousToken, steps, opened: spec.opened || steps.length === 0 });
    const shift = Math.floor(rand() * o.spreadMs);
    const server = o.servers[i % o.servers.length];
    return history.events.map((e) => ({ server, event: { ...e, at: new Date(Date.parse(e.at) + shift).toISOString() } }));
  });
}

/** Deterministic Fisher–Yates shuffle (a copy). */
export function shuffled<T>(xs: readonly T[], seed: number): T[] {
  const rand = createRng(seed);
  const out = xs.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

export { T0 };
