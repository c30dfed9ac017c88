// `doorwatch servers`: every server with its verdict, when it was last seen, its sessions and what
// its boundary counts show (the API's server list).
import { serverListRoute } from '@/lib/contract/api/routes/query';
import type { TServerView } from '@/lib/contract/api/servers';
import { flagString, sinceInstant, type Command } from '../command';
import { EXIT } from '../exit';
import { ago, table } from '../render';
import { VERDICT_COLOUR } from './status';

const naive = (s: TServerView) => s.counts.naiveResumes + s.counts.dualNegotiations + s.counts.burnedTokenReuses;

export const serversCommand: Command = {
  name: 'servers',
  args: '',
  summary: 'the servers: verdict, last seen, sessions, naive answers',
  options: { since: { type: 'string', arg: 'TIME', help: 'range of the refused-request counts (default 15m)' } },
  async run(ctx) {
    const from = sinceInstant(flagString(ctx.flags, 'since') ?? '15m');
    const list = await ctx.api.call(serverListRoute, { query: { from } });
    if (ctx.json) {
      ctx.out(JSON.stringify({ range: list.range, servers: list.servers }));
      return EXIT.ok;
    }
    if (list.servers.length === 0) {
      ctx.out('no servers yet');
      return EXIT.ok;
    }
    const now = Date.parse(list.range.to);
    ctx.out(
      table(
        ctx.style,
        [
          { header: 'SERVER', value: (s: TServerView) => s.name },
          { header: 'VERDICT', value: (s) => s.verdict, colour: (s) => VERDICT_COLOUR[s.verdict] },
          { header: 'LAST SEEN', value: (s) => ago(s.lastSeenAt, Math.max(now, Date.now())) },
          { header: 'SESSIONS', value: (s) => String(s.sessions), align: 'right' },
          { header: 'DOOR', value: (s) => String(s.counts.boundary), align: 'right' },
          { header: 'REFUSED', value: (s) => String(s.counts.refused), align: 'right' },
          { header: 'NAIVE', value: (s) => String(naive(s)), align: 'right', colour: (s) => (naive(s) ? 'red' : null) },
          { header: 'PROBE', value: (s) => s.probe?.verdict ?? '—', colour: (s) => (s.probe?.verdict === 'fail' ? 'red' : null) },
        ],
        list.servers,
      ),
    );
    return EXIT.ok;
  },
};
