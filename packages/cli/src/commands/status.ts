// `doorwatch status`: the overview's alarm (stuck / warn / calm, in its words) and every server's
// verdict, worst first. One sample, so no hold: the level is the one the overview shows for a
// fresh load of the same range.
import { serverListRoute, statsRoute } from '@/lib/contract/api/routes/query';
import type { TServerView } from '@/lib/contract/api/servers';
import { alarmSample, alarmText, rawLevel, type AlarmLevel, type ServerAlarmSample } from '@/lib/ui/alarm';
import { flagString, sinceInstant, type Command } from '../command';
import { EXIT } from '../exit';
import { ago, fit, paint, table, type Paint } from '../render';

/** Worst first: what a server's verdict says about its door. */
const VERDICT_RANK: Record<TServerView['verdict'], number> = {
  naive: 0,
  lossy_resumes: 1,
  idle_resumes: 2,
  unknown: 3,
  resumes_correctly: 4,
  refuses: 5,
};

export const VERDICT_COLOUR: Record<TServerView['verdict'], Paint | null> = {
  naive: 'red',
  lossy_resumes: 'red',
  idle_resumes: 'yellow',
  unknown: 'dim',
  resumes_correctly: 'green',
  refuses: 'green',
};

const LEVEL_COLOUR: Record<AlarmLevel, Paint> = { stuck: 'red', warn: 'yellow', calm: 'green' };

interface StatusRow {
  name: string;
  verdict: TServerView['verdict'];
  verdictText: string;
  evidence: TServerView['evidence'];
  lastSeenAt: string | null;
  stuck: number;
  deadlocksInRange: number;
  naiveInRange: boolean;
}

function worstFirst(a: StatusRow, b: StatusRow): number {
  return (
    b.stuck - a.stuck ||
    Number(b.naiveInRange) - Number(a.naiveInRange) ||
    VERDICT_RANK[a.verdict] - VERDICT_RANK[b.verdict] ||
    b.deadlocksInRange - a.deadlocksInRange ||
    a.name.localeCompare(b.name)
  );
}

export const statusCommand: Command = {
  name: 'status',
  args: '',
  summary: "the alarm and every server's verdict, worst first",
  options: { since: { type: 'string', arg: 'TIME', help: 'range of the alarm: 15m, 1h, now-1d, RFC 3339 (default 15m)' } },
  async run(ctx) {
    const from = sinceInstant(flagString(ctx.flags, 'since') ?? '15m');
    const [stats, list] = await Promise.all([
      ctx.api.call(statsRoute, { query: { from, split: 'server', server: [] } }),
      ctx.api.call(serverListRoute, { query: { from } }),
    ]);
    const sample = alarmSample(stats);
    const level = rawLevel(sample);
    const text = alarmText(sample, sample.at);
    const bySample = new Map<string, ServerAlarmSample>(sample.servers.map((s) => [s.server, s]));
    const servers: StatusRow[] = list.servers
      .map((s) => {
        const a = bySample.get(s.name);
        return {
          name: s.name,
          verdict: s.verdict,
          verdictText: s.verdictText,
          evidence: s.evidence,
          lastSeenAt: s.lastSeenAt,
          stuck: a?.stuck ?? 0,
          deadlocksInRange: a?.deadlocksInRange ?? 0,
          naiveInRange: a?.naiveInRange ?? false,
        };
      })
      .sort(worstFirst);
    if (ctx.json) {
      ctx.out(
        JSON.stringify({ now: stats.now, range: { from: stats.range.from, to: stats.range.to }, alarm: { level, ...text }, servers }),
      );
      return EXIT.ok;
    }
    ctx.out(`${paint(ctx.style, LEVEL_COLOUR[level], level.toUpperCase())}  ${fit(ctx.style, text.headline)}`);
    for (const detail of text.details) ctx.out(fit(ctx.style, `       ${detail}`));
    ctx.out('');
    if (servers.length === 0) {
      ctx.out('no servers yet');
      return EXIT.ok;
    }
    const now = Date.parse(stats.now);
    ctx.out(
      table(
        ctx.style,
        [
          { header: 'SERVER', value: (r: StatusRow) => r.name },
          { header: 'VERDICT', value: (r) => r.verdict, colour: (r) => VERDICT_COLOUR[r.verdict] },
          { header: 'STUCK', value: (r) => String(r.stuck), align: 'right', colour: (r) => (r.stuck ? 'red' : null) },
          { header: 'DEADLOCKS', value: (r) => String(r.deadlocksInRange), align: 'right' },
          { header: 'LAST SEEN', value: (r) => ago(r.lastSeenAt, now) },
          { header: 'WHY', value: (r) => r.verdictText, flexible: true },
        ],
        servers,
      ),
    );
    return EXIT.ok;
  },
};
