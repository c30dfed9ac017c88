/**
 * A small generator of plausible transport histories for one session token:
 * an SSE stream that may negotiate upgrades, drop, be resumed (with a cursor
 * before/at/after the upgrade event or none) and be answered by a server that
 * may be correct, naive, or confused. Timing gaps include 0 ms so that
 * same-instant ties (seq / id tie-breaks) are exercised.
 */
import fc from 'fast-check';
import { ZEvent, type DoorwatchEvent } from '@/lib/contract/event';
import { T0 } from './timeline';

export type Step =
  | { kind: 'upgrade' }
  | { kind: 'complete' }
  | { kind: 'reject'; status: 409 | 400 }
  | { kind: 'drop' }
  | { kind: 'resume'; cursor: 'none' | 'below' | 'at' | 'above'; answer: 'refuse' | 'accept' | 'none' }
  | { kind: 'end'; how: 'session.timeout' | 'session.closed' };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: fc.constant<Step>({ kind: 'upgrade' }) },
  { weight: 2, arbitrary: fc.constant<Step>({ kind: 'complete' }) },
  { weight: 1, arbitrary: fc.constantFrom<Step>({ kind: 'reject', status: 409 }, { kind: 'reject', status: 400 }) },
  { weight: 3, arbitrary: fc.constant<Step>({ kind: 'drop' }) },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('resume' as const),
      cursor: fc.constantFrom('none', 'below', 'at', 'above'),
      answer: fc.constantFrom('refuse', 'accept', 'accept', 'none'),
    }),
  },
  { weight: 1, arbitrary: fc.constantFrom<Step>({ kind: 'end', how: 'session.timeout' }, { kind: 'end', how: 'session.closed' }) },
);

const gapArb = fc.constantFrom(0, 0, 1, 7, 48, 1_000, 9_999, 10_000, 30_000, 300_000);

export interface HistorySpec {
  token: string;
  opened: boolean;
  previousToken: string | null;
  steps: { step: Step; gap: number; seq: number | null }[];
}

export const historySpecArb: fc.Arbitrary<HistorySpec> = fc.record({
  token: fc.constantFrom('tok-A', 'tok-B'),
  opened: fc.boolean(),
  previousToken: fc.option(fc.constant('tok-prev'), { nil: null }),
  steps: fc.array(fc.record({ step: stepArb, gap: gapArb, seq: fc.option(fc.nat(3), { nil: null }) }), { maxLength: 24 }),
});

export interface History {
  events: DoorwatchEvent[];
  /** Event id of the most recent upgrade-accepted (used to aim resume cursors). */
  lastUpgradeEventId: number | null;
  /** Largest SSE event id written so far. */
  lastSseEventId: number;
  lastAtMs: number;
}

/** Interpret a spec into contract events. Deterministic. */
export function buildHistory(spec: HistorySpec): History {
  const events: DoorwatchEvent[] = [];
  let t = T0;
  let n = 0;
  let sseEventId = 3; // the stream had a few ordinary events before anything interesting
  let lastUp: number | null = null;

  const push = (type: DoorwatchEvent['type'], data: Record<string, unknown>, seq: number | null) => {
    n += 1;
    events.push(
      ZEvent.parse({
        id: `${spec.token}.${String(n).padStart(3, '0')}`,
        token: spec.token,
        type,
        at: new Date(t).toISOString(),
        ...(seq === null ? {} : { seq }),
        data,
      }),
    );
  };

  if (spec.opened) push('session.opened', spec.previousToken ? { previousToken: spec.previousToken } : {}, null);

  for (const { step, gap, seq } of spec.steps) {
    t += gap;
    switch (step.kind) {
      case 'upgrade':
        sseEventId += 1 + (gap % 3);
        lastUp = sseEventId;
        push('upgrade.accepted', { eventId: sseEventId }, seq);
        break;
      case 'complete':
        push('upgrade.completed', {}, seq);
        break;
      case 'reject':
        push('upgrade.rejected', { status: step.status }, seq);
        break;
      case 'drop':
        push('stream.dropped', { reason: 'tcp_reset' }, seq);
        break;
      case 'resume': {
        const ref = lastUp ?? sseEventId;
        const lastEventId =
          step.cursor === 'none' ? null : step.cursor === 'below' ? Math.max(0, ref - 1) : step.cursor === 'at' ? ref : ref + 1;
        push('resume.requested', { lastEventId }, seq);
        t += 1 + (gap % 50);
        if (step.answer === 'refuse') push('resume.refused', { reason: 'session-superseded' }, null);
        if (step.answer === 'accept') push('resume.accepted', { replayed: 0 }, null);
        break;
      }
      case 'end':
        push(step.how, {}, seq);
        break;
    }
  }
  return { events, lastUpgradeEventId: lastUp, lastSseEventId: sseEventId, lastAtMs: t };
}

export const historyArb: fc.Arbitrary<History> = historySpecArb.map(buildHistory);

/** Apply a list of swaps to a copy of the array (any permutation is reachable). */
export function permute<T>(xs: readonly T[], swaps: readonly [number, number][]): T[] {
  const out = xs.slice();
  if (out.length < 2) return out;
  for (const [a, b] of swaps) {
    const i = a % out.length;
    const j = b % out.length;
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}
