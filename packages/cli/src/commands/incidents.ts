// `doorwatch incidents`: the incidents, newest last seen first, answering "since when, which
// version, who is on it" per row, with the totals per status (the API's incident list).
import { incidentListRoute } from '@/lib/contract/api/routes/incidents';
import type { TIncident } from '@/lib/contract/api/incidents';
import { flagString, type Command } from '../command';
import { EXIT } from '../exit';
import { ago, fit, paint, type Paint } from '../render';

const STATUS_COLOUR: Record<TIncident['status'], Paint> = { open: 'red', acknowledged: 'yellow', resolved: 'green' };

export const incidentsCommand: Command = {
  name: 'incidents',
  args: '',
  summary: 'the incidents: status, since when, versions, who is on it',
  options: {
    status: { type: 'string', arg: 'STATUS', help: 'only open, acknowledged or resolved incidents' },
    server: { type: 'string', arg: 'SERVER', help: 'only the incidents of this server' },
    limit: { type: 'string', arg: 'N', help: 'at most N incidents (default 50, at most 500)' },
  },
  async run(ctx) {
    const list = await ctx.api.call(incidentListRoute, {
      query: { status: flagString(ctx.flags, 'status'), server: flagString(ctx.flags, 'server'), limit: flagString(ctx.flags, 'limit') },
    });
    if (ctx.json) {
      ctx.out(JSON.stringify(list));
      return EXIT.ok;
    }
    const t = list.totals;
    ctx.out(fit(ctx.style, `${t.open} open · ${t.acknowledged} acknowledged · ${t.resolved} resolved`));
    if (list.incidents.length === 0) {
      ctx.out('no incidents match');
      return EXIT.ok;
    }
    // Two lines per incident, not a table: the id (what `ack` takes) is 40 characters, and the
    // answers to "since when, which version, who is on it" must not be cut to fit 80 columns.
    const now = Date.now();
    for (const i of list.incidents) {
      const status = paint(ctx.style, STATUS_COLOUR[i.status], i.regression ? `${i.status} (regression)` : i.status);
      ctx.out(fit(ctx.style, `${i.id}  ${status}  ${i.title}`));
      const who = i.status === 'resolved' ? `resolved by ${i.resolvedBy ?? '—'}` : `on it: ${i.acknowledgedBy ?? 'nobody yet'}`;
      const sessions = `${i.sessionCount} session${i.sessionCount === 1 ? '' : 's'}`;
      ctx.out(fit(ctx.style, `  since ${ago(i.firstSeen, now)} · ${sessions} · versions ${i.versions.join(', ') || '—'} · ${who}`));
    }
    if (list.total > list.incidents.length) ctx.note(`${list.incidents.length} of ${list.total}: --limit shows more`);
    return EXIT.ok;
  },
};
