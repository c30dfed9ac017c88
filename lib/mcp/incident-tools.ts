// The incident tools over the same services as GET /api/v1/incidents and
// POST /api/v1/incidents/{id}/acknowledge: the list with its totals, and an acknowledgement
// recorded with the operator whose token made the call.
import type { z } from 'zod';
import type { Db } from '@/lib/db/client';
import type { ZAcknowledgeIncidentInput, ZIncidentsInput } from '@/lib/contract/mcp-tools';
import type { TIncident, TIncidentListResponse } from '@/lib/contract/api/incidents';
import { incidentList } from '@/lib/incidents/incident-read';
import { acknowledge } from '@/lib/incidents/incident-actions';
import { doorwatchNow } from '@/lib/instance/doorwatch-clock';

export function incidents(db: Db, args: z.output<typeof ZIncidentsInput>): Promise<TIncidentListResponse> {
  return incidentList(db, { ...args, offset: 0 });
}

export function acknowledgeIncident(
  db: Db,
  args: z.output<typeof ZAcknowledgeIncidentInput>,
  actor: string,
): Promise<{ incident: TIncident }> {
  // MCP calls come with an operator token; its request id is not the HTTP route's.
  return acknowledge(db, args.id, { actor: { kind: 'token', name: actor, id: null }, requestId: null }, doorwatchNow());
}
