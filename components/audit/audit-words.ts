// The audit log's codes in an operator's words, and the tone of each action's chip.
import type { TAuditAction, TAuditActorKind, TAuditEntityType } from '@/lib/contract/api/audit';

export const ENTITY_WORDS: Record<TAuditEntityType, string> = {
  server: 'server',
  server_secret: 'webhook secret',
  operator: 'operator token',
  alert_rule: 'alert rule',
  contact_point: 'contact point',
  probe_target: 'door probe target',
  silence: 'silence',
  incident: 'incident',
  annotation: 'annotation',
};

export const ACTION_TONE: Record<TAuditAction, string> = {
  create: 'good',
  update: 'accent',
  delete: 'bad',
  rotate: 'accent',
  revoke: 'bad',
  expire: 'warn',
  acknowledge: 'warn',
  resolve: 'good',
  note: '',
};

/** How the actor signed in, as a hover text. */
export const ACTOR_KIND_WORDS: Record<TAuditActorKind, string> = {
  session: 'signed in to the dashboard',
  token: 'with a bearer token (API)',
  cli: 'with the command line',
  system: 'Doorwatch itself, from its configuration',
};
