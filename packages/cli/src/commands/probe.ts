// `doorwatch probe SERVER [--wait]`: runs the server's door probe through the API (admin) and
// prints each step's answer. The API answers once the run is stored, so the result is always
// printed; with --wait the exit code follows the verdict (1 fail, 2 inconclusive), as the gate's.
import { probeRunRoute } from '@/lib/contract/api/routes/admin';
import type { TProbeRunView } from '@/lib/contract/api/probes';
import { durationMs, flagString, positional, type Command, type CommandContext } from '../command';
import { EXIT, type ExitCode } from '../exit';
import { fit, paint, table, type Paint } from '../render';

type Step = TProbeRunView['result']['classification']['steps'][number];
const VERDICT_COLOUR: Record<Step['verdict'] | TProbeRunView['verdict'], Paint> = {
  pass: 'green',
  fail: 'red',
  error: 'yellow',
  inconclusive: 'yellow',
};

export const PROBE_EXIT: Record<TProbeRunView['verdict'], ExitCode> = {
  pass: EXIT.ok,
  fail: EXIT.finding,
  inconclusive: EXIT.inconclusive,
};

/** Runs the probe within `timeoutMs` (its steps' deadlines bound it on the server too). */
export function runProbe(ctx: CommandContext, server: string, timeoutMs: number): Promise<TProbeRunView> {
  return ctx.api.call(probeRunRoute, { params: { server }, timeoutMs });
}

export function printProbe(ctx: CommandContext, run: TProbeRunView): void {
  ctx.out(fit(ctx.style, `probe of ${run.server}: ${paint(ctx.style, VERDICT_COLOUR[run.verdict], run.verdict)} in ${run.durationMs} ms`));
  ctx.out(fit(ctx.style, `run ${run.id} · ${run.result.target}`));
  ctx.out(
    table(
      ctx.style,
      [
        { header: 'STEP', value: (s: Step) => s.step },
        { header: 'EXPECTED', value: (s) => s.expected },
        { header: 'OBSERVED', value: (s) => s.observed },
        { header: 'VERDICT', value: (s) => s.verdict, colour: (s) => VERDICT_COLOUR[s.verdict] },
        { header: 'WHY', value: (s) => s.reason, flexible: true },
      ],
      run.result.classification.steps,
    ),
  );
}

export const probeCommand: Command = {
  name: 'probe',
  args: 'SERVER',
  summary: "run the server's door probe now (admin token) and print its steps",
  options: {
    wait: { type: 'boolean', help: 'exit with the verdict: 0 pass, 1 fail, 2 inconclusive' },
    timeout: { type: 'string', arg: 'DURATION', help: 'give up after this long (default 2m)' },
  },
  async run(ctx) {
    const server = positional(ctx, 'SERVER');
    const run = await runProbe(ctx, server, durationMs(flagString(ctx.flags, 'timeout') ?? '2m', 'timeout'));
    if (ctx.json) ctx.out(JSON.stringify(run));
    else printProbe(ctx, run);
    return ctx.flags.wait ? PROBE_EXIT[run.verdict] : EXIT.ok;
  },
};
