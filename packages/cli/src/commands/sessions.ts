// `doorwatch sessions`: the session list with the UI's filters (--flag deadlock --server X --since
// 15m --limit 50), checked by the API's own query schema (ZSessionListQuery) before it is sent.
import { sessionListRoute } from '@/lib/contract/api/routes/query';
import { ZSessionListResponse, type TSessionView } from '@/lib/contract/api/sessions';
import { flagList, flagString, sinceInstant, type Command } from '../command';
import { EXIT } from '../exit';
import { ago, table } from '../render';

export const sessionsCommand: Command = {
  name: 'sessions',
  args: '',
  summary: 'sessions, newest activity first, with the UI filters',
  options: {
    flag: { type: 'string', multiple: true, arg: 'FLAG', help: 'deadlock, naive_resume, refused, … (repeatable: all of them)' },
    server: { type: 'string', multiple: true, arg: 'NAME', help: 'only this server (repeatable: any of them)' },
    state: { type: 'string', multiple: true, arg: 'STATE', help: 'sse_active, upgrade_pending, websocket_bound, terminated' },
    deadlock: {
      type: 'string',
      multiple: true,
      arg: 'STATUS',
      help: 'ongoing (stuck now), ended, end_unreported (repeatable: any of them)',
    },
    since: { type: 'string', arg: 'TIME', help: 'active since: 15m, 2h, now-1d, RFC 3339, epoch ms' },
    until: { type: 'string', arg: 'TIME', help: 'active before (same forms)' },
    token: { type: 'string', arg: 'PREFIX', help: 'a token or its prefix' },
    synthetic: { type: 'string', arg: 'WHICH', help: 'door-probe sessions: include (default), exclude, only' },
    limit: { type: 'string', arg: 'N', help: 'page size 1–500 (default 50)' },
    cursor: { type: 'string', arg: 'CURSOR', help: 'the nextCursor of the previous page' },
  },
  async run(ctx) {
    const since = flagString(ctx.flags, 'since');
    const until = flagString(ctx.flags, 'until');
    const page = await ctx.api.callAs(
      sessionListRoute,
      {
        query: {
          flag: flagList(ctx.flags, 'flag'),
          server: flagList(ctx.flags, 'server'),
          state: flagList(ctx.flags, 'state'),
          deadlock: flagList(ctx.flags, 'deadlock'),
          from: since && sinceInstant(since),
          to: until && sinceInstant(until),
          token: flagString(ctx.flags, 'token'),
          synthetic: flagString(ctx.flags, 'synthetic'),
          limit: flagString(ctx.flags, 'limit'),
          cursor: flagString(ctx.flags, 'cursor'),
        },
      },
      ZSessionListResponse,
    );
    if (ctx.json) {
      ctx.out(JSON.stringify(page));
      return EXIT.ok;
    }
    if (page.sessions.length === 0) {
      ctx.out('no sessions match');
      return EXIT.ok;
    }
    const now = Date.parse(page.now);
    ctx.out(
      table(
        ctx.style,
        [
          { header: 'SERVER', value: (s: TSessionView) => s.server },
          { header: 'TOKEN', value: (s) => s.token, flexible: true },
          { header: 'STATE', value: (s) => s.state },
          { header: 'LAST EVENT', value: (s) => ago(s.lastEventAt, now) },
          {
            header: 'FLAGS',
            value: (s) => s.flags.join(' ') || '—',
            colour: (s) => (s.flags.some((f) => f === 'deadlock' || f === 'naive_resume') ? 'red' : null),
          },
        ],
        page.sessions,
      ),
    );
    const more = page.totalCapped ? `${page.total}+` : String(page.total);
    ctx.note(`${page.sessions.length} of ${more}${page.nextCursor ? ` · next page: --cursor ${page.nextCursor}` : ''}`);
    return EXIT.ok;
  },
};
