// A known set of session timelines across servers, with the stats/list/verdict answers they
// must produce (used by the query unit and integration tests).
export const Q_T0 = Date.parse('2026-11-29T10:00:00.000Z');
export const qAt = (ms: number) => new Date(Q_T0 + ms).toISOString();

type Raw = { id: string; token: string; type: string; at: string; data: Record<string, unknown> };

function timeline(token: string, steps: [string, number, Record<string, unknown>?][]): Raw[] {
  return steps.map(([type, t, data], i) => ({ id: `${token}.${i}`, token, type, at: qAt(t), data: data ?? {} }));
}

/** opened, durable upgrade, drop, boundary resume, refused after `latency` ms. */
function refused(token: string, t: number, latency: number, extra: [string, number, Record<string, unknown>?][] = []): Raw[] {
  return timeline(token, [
    ['session.opened', t],
    ['upgrade.accepted', t + 100, { eventId: 7 }],
    ['stream.dropped', t + 150, { reason: 'reset' }],
    ['resume.requested', t + 200, { lastEventId: 7 }],
    ['resume.refused', t + 200 + latency, { reason: 'session-superseded' }],
    ...extra,
  ]);
}

/** opened, upgrade, drop, boundary resume answered with a naive resume (deadlock candidate at t+250). */
function naive(token: string, t: number, extra: [string, number, Record<string, unknown>?][] = []): Raw[] {
  return timeline(token, [
    ['session.opened', t],
    ['upgrade.accepted', t + 100, { eventId: 3 }],
    ['stream.dropped', t + 150, { reason: 'reset' }],
    ['resume.requested', t + 200, { lastEventId: 3 }],
    ['resume.accepted', t + 250, { replayed: 0 }],
    ...extra,
  ]);
}

export const Q_BATCHES: { server: string; events: Raw[] }[] = [
  {
    server: 'alpha',
    events: [
      ...refused('a-ref1', 0, 51),
      ...refused('a-ref2', 1000, 100),
      ...timeline('a-new2', [['session.opened', 1600, { previousToken: 'a-ref2' }]]),
      ...refused('a-ref3', 120_000, 30),
    ],
  },
  {
    server: 'beta',
    events: [
      ...timeline('b-new1', [
        ['session.opened', 400, { previousToken: 'a-ref1' }],
        ['upgrade.accepted', 500, { eventId: 1 }],
        ['upgrade.completed', 600],
      ]),
      // naive resume at 60_250, deadlock ended by the timeout 300 s later
      ...naive('b-naive', 60_000, [['session.timeout', 360_250, { idleMs: 300_000 }]]),
      ...timeline('b-dual', [
        ['session.opened', 180_000],
        ['upgrade.accepted', 180_100, { eventId: 1 }],
        ['upgrade.accepted', 180_200, { eventId: 2 }],
      ]),
      // unended naive resume at 240_250: ongoing once the reader's clock is ≥ threshold past it
      ...naive('b-ongoing', 240_000),
    ],
  },
  {
    server: 'gamma',
    // refused (latency 60), then the burned token negotiates again
    events: refused('g-burn', 300_000, 60, [['upgrade.accepted', 300_300, { eventId: 9 }]]),
  },
];

export const Q_RANGE = { from: qAt(0), to: qAt(10 * 60_000) };
export const Q_ONGOING_START = Q_T0 + 240_250;
export const Q_ALL_TOKENS = ['a-ref1', 'a-ref2', 'a-new2', 'a-ref3', 'b-new1', 'b-naive', 'b-dual', 'b-ongoing', 'g-burn'];

/** What /stats over Q_RANGE for all servers must say (deadlock idle time depends on now). */
export const Q_EXPECTED = {
  events: 39,
  sessions: 9,
  drops: 6,
  boundary: 6,
  refused: 4,
  naiveResumes: 2,
  dualNegotiations: 1,
  burnedTokenReuses: 1,
  refusalLatencyMs: { count: 4, min: 30, p50: 51, p95: 100, p99: 100, max: 100 },
  renegotiations: { count: 2, rate: 2 / 6, latencyMs: { min: 149, p50: 149, p95: 300, max: 300 }, under200ms: 1 },
  endedDeadlockIdleMs: 300_000,
};
