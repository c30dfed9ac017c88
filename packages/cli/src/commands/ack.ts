// `doorwatch ack ID`: acknowledges an open incident (admin token): someone is on it, and no more
// notifications go out for it. Acknowledging one that is not open is the API's 409, exit 64.
import { incidentAcknowledgeRoute } from '@/lib/contract/api/routes/incidents';
import { positional, type Command } from '../command';
import { EXIT } from '../exit';
import { fit } from '../render';

export const ackCommand: Command = {
  name: 'ack',
  args: 'ID',
  summary: 'acknowledge an open incident (admin token): stops its notifications',
  options: {},
  async run(ctx) {
    const id = positional(ctx, 'ID');
    const { incident } = await ctx.api.call(incidentAcknowledgeRoute, { params: { id } });
    if (ctx.json) ctx.out(JSON.stringify({ incident }));
    else {
      ctx.out(fit(ctx.style, `${incident.title}: acknowledged by ${incident.acknowledgedBy ?? '?'}`));
      ctx.out(fit(ctx.style, `  ${incident.id}`));
    }
    return EXIT.ok;
  },
};
