import { incidentNoteRoute } from '@/lib/contract/api/routes/incidents';
import { addNote } from '@/lib/incidents/incident-actions';
import { noteEntry } from '@/lib/incidents/incident-timeline';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';
import { doorwatchNow } from '@/lib/instance/doorwatch-clock';

export const dynamic = 'force-dynamic';

export const POST = defineRoute(incidentNoteRoute, async ({ db, params, body, audit }) =>
  noteEntry(await addNote(db, params.id, audit, body.text, doorwatchNow())),
);

export const { GET, HEAD, PUT, PATCH, DELETE } = refuseOtherMethods(incidentNoteRoute);
