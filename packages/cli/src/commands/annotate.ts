// `doorwatch annotate TEXT`: posts an annotation (admin or annotate token), e.g. a deploy step in a
// pipeline: "deployed v2.3.1 to eu-west". It shows on every time chart and in incidents' windows.
import { annotationCreateRoute } from '@/lib/contract/api/routes/annotations';
import { ZAnnotationView } from '@/lib/contract/api/annotations';
import { flagList, flagString, type Command } from '../command';
import { CliError, EXIT } from '../exit';
import { fit } from '../render';

/** "2026-12-03T14:02:00Z" or epoch ms → epoch ms; absent → the server's now. */
function instant(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const ms = /^\d+$/.test(value) ? Number(value) : Date.parse(value);
  if (!Number.isFinite(ms)) throw new CliError(EXIT.usage, `invalid_${flag}`, `--${flag}: "${value}" is not an RFC 3339 time or epoch ms`);
  return ms;
}

export const annotateCommand: Command = {
  name: 'annotate',
  args: 'TEXT',
  summary: 'post an annotation, e.g. a deploy (admin or annotate token)',
  options: {
    tag: { type: 'string', multiple: true, arg: 'TAG', help: 'a tag (repeatable): --tag deploy --tag v2.3.1' },
    server: { type: 'string', arg: 'SERVER', help: 'the server it concerns (default: the whole fleet)' },
    time: { type: 'string', arg: 'TIME', help: 'when (RFC 3339 or epoch ms; default now)' },
    end: { type: 'string', arg: 'TIME', help: 'the end, for a region (a rollout that took a while)' },
  },
  async run(ctx) {
    if (ctx.positionals.length === 0) throw new CliError(EXIT.usage, 'usage', 'expected the annotation TEXT');
    const body = {
      text: ctx.positionals.join(' '),
      tags: flagList(ctx.flags, 'tag'),
      server: flagString(ctx.flags, 'server'),
      time: instant(flagString(ctx.flags, 'time'), 'time'),
      timeEnd: instant(flagString(ctx.flags, 'end'), 'end'),
    };
    const annotation = await ctx.api.callAs(annotationCreateRoute, { body }, ZAnnotationView);
    if (ctx.json) ctx.out(JSON.stringify(annotation));
    else ctx.out(fit(ctx.style, `annotation ${annotation.id} at ${annotation.time}: ${annotation.text}`));
    return EXIT.ok;
  },
};
