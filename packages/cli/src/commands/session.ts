// `doorwatch session TOKEN`: one session's timeline as text, the door (the upgrade-accepted event the
// boundary rule starts from) and the server's answer to the resume at it marked in the margin.
import { sessionDetailRoute, sessionListRoute } from '@/lib/contract/api/routes/query';
import type { TSessionDetailResponse, TTimelineEvent } from '@/lib/contract/api/session-detail';
import { ZSessionListResponse } from '@/lib/contract/api/sessions';
import { flagString, positional, type Command, type CommandContext } from '../command';
import { CliError, EXIT } from '../exit';
import { clock, paint } from '../render';

/**
 * Which events are the door and the answer, by id: the door is the upgrade-accepted event the
 * boundary resume came after (the summary's boundaryAt is that resume), the answer is the server's
 * reply to it (at answeredAt).
 */
export function marks(detail: TSessionDetailResponse): { door: string | null; answer: string | null } {
  const { boundaryAt, answeredAt } = detail.session;
  if (!boundaryAt) return { door: null, answer: null };
  const before = detail.timeline.filter((e) => e.at <= boundaryAt);
  const door = before.findLast((e) => e.type === 'upgrade.accepted') ?? null;
  const answer = answeredAt
    ? (detail.timeline.find((e) => e.at === answeredAt && e.type.startsWith('resume.') && e.type !== 'resume.requested') ?? null)
    : null;
  return { door: door?.id ?? null, answer: answer?.id ?? null };
}

/** The server of a token given alone: the one session whose token matches exactly. */
async function serverOf(ctx: CommandContext, token: string): Promise<string> {
  const page = await ctx.api.callAs(sessionListRoute, { query: { token, limit: '50' } }, ZSessionListResponse);
  const servers = [...new Set(page.sessions.filter((s) => s.token === token).map((s) => s.server))];
  if (servers.length === 1) return servers[0];
  if (servers.length === 0) throw new CliError(EXIT.notFound, 'session_not_found', `no session with token ${token}`);
  throw new CliError(EXIT.usage, 'ambiguous_token', `token ${token} is on several servers (${servers.join(', ')}): pass --server`);
}

const dataText = (e: TTimelineEvent) => {
  const text = Object.keys(e.data).length ? JSON.stringify(e.data) : '';
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
};

export const sessionCommand: Command = {
  name: 'session',
  args: 'TOKEN',
  summary: 'one session: its timeline, the door and the answer marked',
  options: { server: { type: 'string', arg: 'NAME', help: 'the server (needed only when the token is on several)' } },
  async run(ctx) {
    const token = positional(ctx, 'TOKEN');
    const server = flagString(ctx.flags, 'server') ?? (await serverOf(ctx, token));
    const detail = await ctx.api.call(sessionDetailRoute, { params: { server, token } });
    const m = marks(detail);
    if (ctx.json) {
      ctx.out(JSON.stringify({ ...detail, marks: m }));
      return EXIT.ok;
    }
    const s = detail.session;
    ctx.out(`${paint(ctx.style, 'bold', s.token)} on ${s.server}: ${s.state}${s.flags.length ? ` [${s.flags.join(' ')}]` : ''}`);
    if (s.boundaryOutcome) {
      const latency = s.refusalLatencyMs !== null ? ` in ${s.refusalLatencyMs} ms` : '';
      const colour = s.boundaryOutcome === 'refused' ? 'green' : s.boundaryOutcome === 'naive_resume' ? 'red' : 'yellow';
      ctx.out(`at the door: ${paint(ctx.style, colour, s.boundaryOutcome)}${latency}`);
    }
    if (s.deadlock) ctx.out(paint(ctx.style, 'red', `deadlock since ${s.deadlock.startedAt}${s.deadlock.ongoing ? ' (ongoing)' : ''}`));
    ctx.out('');
    for (const e of detail.timeline) {
      const mark = e.id === m.door ? 'DOOR  ' : e.id === m.answer ? 'ANSWER' : '      ';
      const colour = e.id === m.door ? 'bold' : e.id === m.answer ? (s.boundaryOutcome === 'refused' ? 'green' : 'red') : null;
      ctx.out(`${paint(ctx.style, colour, mark)} ${clock(e.at)}  ${e.type.padEnd(18)} ${dataText(e)}`.trimEnd());
    }
    const chain = [
      ...detail.chain.predecessors.map((l) => `← ${l.server}/${l.token}`),
      ...detail.chain.successors.map((l) => `→ ${l.server}/${l.token}`),
    ];
    if (chain.length) ctx.out(`\nrenegotiation: ${chain.join('  ')}`);
    return EXIT.ok;
  },
};
