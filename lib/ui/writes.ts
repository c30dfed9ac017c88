'use client';
/**
 * Every write the dashboard makes, the counterpart of query-defs.ts for reads: each is sent with the
 * method and path its route contract declares (lib/contract/api/routes/), its body typed from the
 * contract's body schema and its answer checked against the contract's response schema, so no URL
 * or body shape is written by hand in a component. Components keep their useMutation calls (what
 * to invalidate and show afterwards is theirs); the request itself is made here.
 */
import type { z } from 'zod';
import type { RouteContract } from '@/lib/contract/api/route-contract';
import { loginRoute, logoutRoute, operatorCreateRoute, operatorRevokeRoute } from '@/lib/contract/api/routes/access';
import {
  probeRunRoute,
  probeTargetClearRoute,
  probeTargetSetRoute,
  secretRotateRoute,
  serverAddRoute,
  serverRemoveRoute,
} from '@/lib/contract/api/routes/admin';
import {
  alertRuleCreateRoute,
  alertRuleDeleteRoute,
  alertRuleUpdateRoute,
  contactPointCreateRoute,
  contactPointDeleteRoute,
} from '@/lib/contract/api/routes/alerts';
import {
  incidentAcknowledgeRoute,
  incidentNoteRoute,
  incidentResolveRoute,
  silenceCreateRoute,
  silenceExpireRoute,
} from '@/lib/contract/api/routes/incidents';
import { annotationCreateRoute } from '@/lib/contract/api/routes/annotations';
import { apiFetch, type FetchOptions } from './fetcher';

type ParamsOf<C> = C extends { params: infer P extends z.ZodObject } ? { params: z.input<P> } : { params?: undefined };
type BodyOf<C> = C extends { body: infer B extends z.ZodType } ? { body: z.input<B> } : { body?: undefined };
/** What the operation answers with: the output of its success schema, nothing for an empty answer (204). */
type AnswerOf<C extends RouteContract> = {
  [K in keyof C['responses']]: C['responses'][K] extends { schema: infer S extends z.ZodType } ? z.output<S> : void;
}[keyof C['responses']];

/** The contract's path (OpenAPI form, /api/v1/servers/{server}) with each parameter filled in and encoded. */
function routePath(c: RouteContract, params: Record<string, string> = {}): string {
  return c.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${c.operationId}: path parameter "${name}" is missing`);
    return encodeURIComponent(value);
  });
}

/** Sends one write as its contract declares it; the answer is validated by the first success schema. */
function send<C extends RouteContract>(
  c: C,
  input: ParamsOf<C> & BodyOf<C>,
  opts: Pick<FetchOptions, 'noAuthRedirect'> = {},
): Promise<AnswerOf<C>> {
  const schema = Object.values(c.responses)[0]?.schema as z.ZodType<AnswerOf<C>> | undefined;
  const params = (input as { params?: Record<string, string> }).params;
  return apiFetch(routePath(c, params), schema, { method: c.method, body: (input as { body?: unknown }).body, ...opts });
}

type Body<C extends { body: z.ZodType }> = z.input<C['body']>;

export const writes = {
  // The login page handles its own 401 (a wrong token), and logout must not bounce back to /login?next=.
  login: (body: Body<typeof loginRoute>) => send(loginRoute, { body }, { noAuthRedirect: true }),
  logout: () => send(logoutRoute, {}, { noAuthRedirect: true }),

  createOperator: (body: Body<typeof operatorCreateRoute>) => send(operatorCreateRoute, { body }),
  revokeOperator: (id: string) => send(operatorRevokeRoute, { params: { id } }),

  addServer: (body: Body<typeof serverAddRoute>) => send(serverAddRoute, { body }),
  rotateSecret: (server: string, body: Body<typeof secretRotateRoute> = {}) => send(secretRotateRoute, { params: { server }, body }),
  removeServer: (server: string) => send(serverRemoveRoute, { params: { server } }),
  runProbe: (server: string) => send(probeRunRoute, { params: { server } }),
  setProbeTarget: (server: string, body: Body<typeof probeTargetSetRoute>) => send(probeTargetSetRoute, { params: { server }, body }),
  clearProbeTarget: (server: string) => send(probeTargetClearRoute, { params: { server } }),

  createAlertRule: (body: Body<typeof alertRuleCreateRoute>) => send(alertRuleCreateRoute, { body }),
  updateAlertRule: (id: string, body: Body<typeof alertRuleUpdateRoute>) => send(alertRuleUpdateRoute, { params: { id }, body }),
  deleteAlertRule: (id: string) => send(alertRuleDeleteRoute, { params: { id } }),
  createContactPoint: (body: Body<typeof contactPointCreateRoute>) => send(contactPointCreateRoute, { body }),
  deleteContactPoint: (id: string) => send(contactPointDeleteRoute, { params: { id } }),

  acknowledgeIncident: (id: string) => send(incidentAcknowledgeRoute, { params: { id } }),
  resolveIncident: (id: string, body: Body<typeof incidentResolveRoute> = {}) => send(incidentResolveRoute, { params: { id }, body }),
  addIncidentNote: (id: string, body: Body<typeof incidentNoteRoute>) => send(incidentNoteRoute, { params: { id }, body }),
  createSilence: (body: Body<typeof silenceCreateRoute>) => send(silenceCreateRoute, { body }),
  expireSilence: (id: string) => send(silenceExpireRoute, { params: { id } }),
  createAnnotation: (body: Body<typeof annotationCreateRoute>) => send(annotationCreateRoute, { body }),
};
