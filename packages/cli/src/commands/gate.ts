// `doorwatch gate SERVER`: a deploy gate. Exit 0 when the server refuses correctly (with --probe a
// fresh door probe passes, and at most --max-naive sessions resumed naively, negotiated twice or
// reused a burned token since --since), 1 when it does not (the evidence printed), 2 when it cannot
// tell (the probe was inconclusive or could not run, no session reached the door and no probe was
// asked for, or --timeout passed). Probe sessions (synthetic) are the probe's evidence, not traffic.
import { serverListRoute, sessionListRoute } from '@/lib/contract/api/routes/query';
import type { TProbeRunView } from '@/lib/contract/api/probes';
import { ZSessionListResponse, type TSessionView } from '@/lib/contract/api/sessions';
import { durationMs, flagString, positional, sinceInstant, type Command, type CommandContext } from '../command';
import { CliError, EXIT, type ExitCode } from '../exit';
import { paint } from '../render';
import { runProbe } from './probe';

const NAIVE_FLAGS = ['naive_resume', 'dual_negotiation', 'burned_token_reuse'] as const;
type NaiveFlag = (typeof NAIVE_FLAGS)[number];
const OUTCOME_EXIT = { pass: EXIT.ok, fail: EXIT.finding, inconclusive: EXIT.inconclusive } as const;
type Outcome = keyof typeof OUTCOME_EXIT;

interface Evidence {
  token: string;
  flags: NaiveFlag[];
  at: string | null;
}

interface GateReport {
  server: string;
  outcome: Outcome;
  exitCode: ExitCode;
  reasons: string[];
  since: string;
  maxNaive: number;
  probe: { runId: string; verdict: TProbeRunView['verdict']; failedSteps: { step: string; observed: string; reason: string }[] } | null;
  /** Sessions since `since` that reached the door (traffic, not probes). */
  doorSessions: number;
  naive: { sessions: number; evidence: Evidence[] };
}

const firstNaiveAt = (s: TSessionView) => s.naiveResumeAt ?? s.dualNegotiationAt ?? s.burnedTokenReuseAt;

async function traffic(ctx: CommandContext, server: string, since: string) {
  const list = (flag: string, limit: string) =>
    ctx.api.callAs(
      sessionListRoute,
      { query: { server: [server], flag: [flag], from: since, synthetic: 'exclude', limit } },
      ZSessionListResponse,
    );
  const [door, ...naive] = await Promise.all([list('boundary', '1'), ...NAIVE_FLAGS.map((f) => list(f, '500'))]);
  const byToken = new Map<string, Evidence>();
  for (const s of naive.flatMap((p) => p.sessions)) {
    const flags = s.flags.filter((f): f is NaiveFlag => (NAIVE_FLAGS as readonly string[]).includes(f));
    byToken.set(s.token, { token: s.token, flags, at: firstNaiveAt(s) });
  }
  // Beyond one page per kind the count is a lower bound: still over any sane --max-naive.
  const counted = Math.max(byToken.size, ...naive.map((p) => p.total));
  return { doorSessions: door.total, naive: { sessions: counted, evidence: [...byToken.values()] } };
}

async function judge(ctx: CommandContext, server: string, o: { since: string; maxNaive: number; probe: boolean; timeoutMs: number }) {
  const list = await ctx.api.call(serverListRoute, { query: {} });
  if (!list.servers.some((s) => s.name === server)) {
    const known = list.servers.map((s) => s.name).slice(0, 10);
    throw new CliError(EXIT.notFound, 'server_not_found', `unknown server ${server}${known.length ? ` (known: ${known.join(', ')})` : ''}`);
  }
  const reasons: { fail: string[]; inconclusive: string[] } = { fail: [], inconclusive: [] };
  let probe: GateReport['probe'] = null;
  if (o.probe) {
    try {
      const run = await runProbe(ctx, server, o.timeoutMs);
      const failedSteps = run.result.classification.steps
        .filter((s) => s.verdict !== 'pass')
        .map((s) => ({ step: s.step, observed: s.observed, reason: s.reason }));
      probe = { runId: run.id, verdict: run.verdict, failedSteps };
      if (run.verdict === 'fail') reasons.fail.push(`the door probe failed (run ${run.id})`);
      if (run.verdict === 'inconclusive') reasons.inconclusive.push(`the door probe was inconclusive (run ${run.id})`);
    } catch (err) {
      // An auth failure is the caller's to fix, not a verdict on the server.
      if (!(err instanceof CliError) || err.exitCode === EXIT.auth) throw err;
      reasons.inconclusive.push(`the door probe could not run: ${err.message}`);
    }
  }
  const seen = await traffic(ctx, server, o.since);
  if (seen.naive.sessions > o.maxNaive) {
    reasons.fail.push(`${seen.naive.sessions} session(s) resumed naively since ${o.since} (allowed: ${o.maxNaive})`);
  }
  if (!o.probe && seen.doorSessions === 0 && seen.naive.sessions === 0) {
    reasons.inconclusive.push(`no session of ${server} reached the door since ${o.since}, and no probe was asked for (--probe)`);
  }
  const outcome: Outcome = reasons.fail.length ? 'fail' : reasons.inconclusive.length ? 'inconclusive' : 'pass';
  const passReasons = [
    ...(probe?.verdict === 'pass' ? [`the door probe passed (run ${probe.runId})`] : []),
    `${seen.doorSessions} session(s) reached the door since ${o.since}; ${seen.naive.sessions} resumed naively (allowed: ${o.maxNaive})`,
  ];
  const report: GateReport = {
    server,
    outcome,
    exitCode: OUTCOME_EXIT[outcome],
    reasons: outcome === 'pass' ? passReasons : [...reasons.fail, ...reasons.inconclusive],
    since: o.since,
    maxNaive: o.maxNaive,
    probe,
    ...seen,
  };
  return report;
}

function print(ctx: CommandContext, r: GateReport): void {
  const colour = r.outcome === 'pass' ? 'green' : r.outcome === 'fail' ? 'red' : 'yellow';
  ctx.out(`gate ${r.server}: ${paint(ctx.style, colour, r.outcome.toUpperCase())} (exit ${r.exitCode})`);
  for (const reason of r.reasons) ctx.out(`  ${reason}`);
  for (const s of r.probe?.failedSteps ?? []) ctx.out(`  probe step ${s.step}: ${s.observed}: ${s.reason}`);
  for (const e of r.naive.evidence.slice(0, 20)) ctx.out(`  session ${e.token}: ${e.flags.join(', ')} at ${e.at ?? '?'}`);
  if (r.naive.evidence.length > 20) ctx.out(`  … and ${r.naive.evidence.length - 20} more (--json lists them all)`);
}

export const gateCommand: Command = {
  name: 'gate',
  args: 'SERVER',
  summary: 'deploy gate: 0 refuses correctly, 1 resumes naively (evidence), 2 inconclusive',
  options: {
    probe: { type: 'boolean', help: 'run a fresh door probe; it must pass' },
    since: { type: 'string', arg: 'TIME', help: 'judge traffic since: the deploy time, 15m, RFC 3339 (default 1h)' },
    'max-naive': { type: 'string', arg: 'N', help: 'naive sessions tolerated since TIME (default 0)' },
    timeout: { type: 'string', arg: 'DURATION', help: 'inconclusive (exit 2) after this long (default 2m)' },
  },
  async run(ctx) {
    const server = positional(ctx, 'SERVER');
    const maxNaive = flagString(ctx.flags, 'max-naive') ?? '0';
    if (!/^\d{1,9}$/.test(maxNaive))
      throw new CliError(EXIT.usage, 'invalid_max_naive', `--max-naive: "${maxNaive}" is not a whole number`);
    const timeoutMs = durationMs(flagString(ctx.flags, 'timeout') ?? '2m', 'timeout');
    const options = {
      since: sinceInstant(flagString(ctx.flags, 'since') ?? '1h'),
      maxNaive: Number(maxNaive),
      probe: ctx.flags.probe === true,
      timeoutMs,
    };
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new CliError(
              EXIT.inconclusive,
              'timeout',
              `gate ${server}: INCONCLUSIVE: no decision within ${flagString(ctx.flags, 'timeout') ?? '2m'}`,
            ),
          ),
        timeoutMs,
      );
    });
    try {
      const report = await Promise.race([judge(ctx, server, options), deadline]);
      if (ctx.json) ctx.out(JSON.stringify(report));
      else print(ctx, report);
      return report.exitCode;
    } finally {
      clearTimeout(timer);
    }
  },
};
