// A probe says what happened on the wire (issue 23): step 2's latency is the resume's answer
// alone (not the renegotiation after it), the probe's sessions are stamped at the moments it
// observed, so the probed server's own report of the same sessions adds no phantom negotiation,
// and a step that never reached the door sent no resume and expects what docs/probes.md says.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Reporter } from '@doorwatch/reporter';
import { Ledger } from '@/scripts/sim/ledger';
import { startSimServer, type ServerMode, type SimServer } from '@/scripts/sim/server';
import { runProbe } from '@/lib/probes/run-probe';
import { probeEvents } from '@/lib/probes/probe-events';
import { TargetLimiter } from '@/lib/probes/target-limiter';
import { summarize } from '@/lib/boundary/summarize';
import { ZEvent, type DoorwatchEvent } from '@/lib/contract/event';
import type { ProbeResult, StepResult } from '@/lib/contract/probe-result';

// The servers under test listen on loopback, which DOORWATCH_PROBE_ALLOW's default does not allow.
const OPTIONS = { idleMs: 1_500, stepTimeoutMs: 6_000, resetDelayMs: 40, allow: ['public', 'private', 'loopback'] as const };

/** A sim server whose reporter keeps what it reports (the server's own view of every session). */
async function reportingSim(mode: ServerMode): Promise<{ server: SimServer; reported: DoorwatchEvent[] }> {
  const reported: DoorwatchEvent[] = [];
  const reporter = { report: (e: DoorwatchEvent) => (reported.push(e), true) } as unknown as Reporter;
  const server = await startSimServer({
    name: `truth-${mode}`,
    mode,
    reporter,
    ledger: new Ledger(),
    upgradeAfterMs: () => 30,
    messageIntervalMs: 10,
  });
  return { server, reported };
}

const entryAt = (step: StepResult, match: (text: string) => boolean): number => {
  const entry = step.transcript.entries.find((e) => match(e.text));
  assert.ok(entry, `no transcript entry matched in ${step.step}`);
  return entry.t;
};

describe('probe results follow the wire', () => {
  const servers: { close(): Promise<void> }[] = [];
  after(async () => {
    for (const s of servers) await s.close();
  });

  test("step 2's latency is from the resume to session-superseded, not including the renegotiation", async () => {
    const { server } = await reportingSim('refusing');
    servers.push(server);
    const result = await runProbe({ url: `${server.url}/mcp` }, { ...OPTIONS, limiter: new TargetLimiter() });
    const step = result.steps.find((s) => s.step === 'reset_at_door')!;
    assert.equal(step.answer, 'superseded');
    assert.equal(step.renegotiation?.ok, true);
    const resumeAt = entryAt(step, (t) => t.startsWith('GET ') && t.includes('last-event-id'));
    const refusedAt = entryAt(step, (t) => t.includes('event=session-superseded'));
    // Transcript times are rounded ms, so allow one ms either way.
    assert.ok(step.latencyMs! <= refusedAt - resumeAt + 1, `latency ${step.latencyMs} ms; on the wire ${refusedAt - resumeAt} ms`);
    assert.ok(step.moments!.successorOpened! >= step.moments!.answer!, 'the renegotiation starts after the answer');
  });

  for (const mode of ['refusing', 'naive'] as const) {
    test(`${mode} server: its own report of the probe's sessions and the probe's agree on negotiations`, async () => {
      const { server, reported } = await reportingSim(mode);
      servers.push(server);
      const result: ProbeResult = await runProbe({ url: `${server.url}/mcp` }, { ...OPTIONS, limiter: new TargetLimiter() });
      // Everything the server will report of the probe's sessions: a session reports nothing once it has
      // left the server's table (terminated), and a WebSocket's close handler may run after the probe returns.
      const deadline = Date.now() + 30_000; // a bound for a hang, not a speed target
      while (server.liveSessions() > 0) {
        assert.ok(Date.now() < deadline, `the probed server still holds ${server.liveSessions()} sessions 30 s after the probe`);
        await new Promise((r) => setTimeout(r, 5));
      }
      const fromProbe = probeEvents('run-1', result).map((e) => ZEvent.parse(e));
      const now = Date.now() + 60_000;
      for (const token of result.steps.flatMap((s) => s.tokens)) {
        const own = reported.filter((e) => e.token === token);
        const mine = fromProbe.filter((e) => e.token === token);
        assert.ok(own.length > 0 && mine.length > 0, `both sides saw ${token}`);
        const alone = summarize(own, now);
        const merged = summarize([...own, ...mine], now);
        assert.equal(merged.dualNegotiationCount, alone.dualNegotiationCount, `${token}: dual negotiations`);
        assert.equal(merged.boundaryOutcome, alone.boundaryOutcome, `${token}: boundary outcome`);
        assert.equal(merged.burnedTokenReuseAt, null, `${token}: no burned-token reuse`);
      }
      // The probe's events sit at the observed moments: the door event at the transcript's door.
      for (const step of result.steps) {
        const door = fromProbe.find((e) => e.token === step.tokens[0] && e.type === 'upgrade.accepted');
        if (!door || step.moments?.door == null) continue;
        assert.equal(Date.parse(door.at) - Date.parse(step.startedAt), step.moments.door);
      }
    });
  }

  test('a target that never reaches the door: no resume recorded, expected answers as documented', async () => {
    const notFound: Server = createServer((_req, res) => res.writeHead(404).end());
    await new Promise<void>((r) => notFound.listen(0, '127.0.0.1', r));
    servers.push({ close: () => new Promise<void>((r) => notFound.close(() => r())) });
    const url = `http://127.0.0.1:${(notFound.address() as AddressInfo).port}/mcp`;
    const result = await runProbe({ url }, { ...OPTIONS, limiter: new TargetLimiter() });
    assert.deepEqual(
      result.steps.map((s) => s.resume),
      [null, null, null, null],
    );
    // docs/probes.md, "The four steps": what each step's rule expects.
    assert.deepEqual(
      result.classification.steps.map((c) => c.expected),
      ['upgraded', 'superseded', 'superseded', 'resumed'],
    );
    assert.equal(result.classification.verdict, 'inconclusive');
  });
});
