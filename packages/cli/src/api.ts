// Calls one API operation as its route contract declares it: the path and query are validated with
// the contract's own zod schemas before anything is sent (the same checks, and the same error codes,
// as the API's), the answer is parsed with its response schema, and every failure becomes a CliError
// that names the cause. The token goes in the Authorization header and nowhere else.
import type { z } from 'zod';
import { ZApiError } from '@/lib/contract/api/common';
import { queryString, type RouteContract } from '@/lib/contract/api/route-contract';
import type { Connection } from './config';
import { CliError, EXIT } from './exit';
import { describeNetworkError } from './network-error';

type Ok<C extends RouteContract> = C['responses'][200] extends { schema: infer S extends z.ZodType } ? z.output<S> : unknown;

export interface CallInput {
  params?: Record<string, string>;
  query?: Record<string, unknown>;
  /** The JSON body, validated with the route's own body schema before it is sent. */
  body?: unknown;
  /** This call's deadline, when it is not the usual one (a probe runs for its steps' deadlines). */
  timeoutMs?: number;
}

export interface Api {
  call<C extends RouteContract>(route: C, input?: CallInput): Promise<Ok<C>>;
  /** The same call, its body parsed with `schema` (for an operation with several answer shapes). */
  callAs<S extends z.ZodType>(route: RouteContract, input: CallInput, schema: S): Promise<z.output<S>>;
  /** The URL and headers of an operation, for a caller that reads the body itself (the change stream). */
  prepare(route: RouteContract, input?: CallInput): { url: string; headers: Record<string, string> };
  connection: Connection;
}

/** A zod rejection of the CLI's input, worded as the API words its 400s (invalid_<param>). */
export function inputError(error: z.ZodError, flagFor: (param: string) => string = (p) => `--${p}`): CliError {
  const issue = error.issues[0];
  const param = String(issue.path[0] ?? 'input');
  return new CliError(EXIT.usage, `invalid_${param}`, `${flagFor(param)}: ${issue.message}`);
}

function pathOf(route: RouteContract, params: Record<string, string>): string {
  if (!route.params) return route.path;
  const parsed = route.params.safeParse(params);
  if (!parsed.success) throw inputError(parsed.error, (p) => p.toUpperCase());
  const values = parsed.data as Record<string, string>;
  return route.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values[name]));
}

function queryOf(route: RouteContract, query: Record<string, unknown> | undefined): string {
  if (!route.query || !query) return '';
  const parsed = route.query.safeParse(query);
  if (!parsed.success) throw inputError(parsed.error);
  return queryString(route.query, parsed.data as Record<string, unknown>);
}

function bodyOf(route: RouteContract, body: unknown): string | undefined {
  if (body === undefined) return undefined;
  if (route.body) {
    const parsed = route.body.safeParse(body);
    if (!parsed.success) throw inputError(parsed.error);
  }
  // The body as given, not as parsed: the server applies the schema's defaults itself.
  return JSON.stringify(body);
}

/** A non-2xx answer as the CliError that names its cause (401 token, 403 role, 404, 400 input, 5xx). */
export async function answerError(res: Response, route: RouteContract, conn: Connection): Promise<CliError> {
  const text = await res.text().catch(() => '');
  let code = `http_${res.status}`;
  let message = text.slice(0, 200) || res.statusText;
  try {
    const body = ZApiError.safeParse(JSON.parse(text));
    if (body.success) ({ code, message } = body.data.error);
  } catch {
    /* not JSON: keep the text */
  }
  const where = conn.context ? ` (context ${conn.context})` : '';
  if (res.status === 401) {
    const hint = conn.token ? 'check DOORWATCH_TOKEN, --token or the context' : 'set DOORWATCH_TOKEN or pass --token';
    return new CliError(EXIT.auth, code, `the token was refused by ${conn.url}${where}: ${message}; ${hint}`);
  }
  if (res.status === 403) {
    return new CliError(EXIT.auth, code, `forbidden: ${route.operationId} needs the ${route.auth} role (${message})`);
  }
  if (res.status === 404) return new CliError(EXIT.notFound, code, message);
  if (res.status >= 400 && res.status < 500) return new CliError(EXIT.usage, code, message);
  return new CliError(EXIT.unavailable, code, `Doorwatch at ${conn.url} answered ${res.status}: ${message}`);
}

export function createApi(conn: Connection, options: { verbose: boolean; timeoutMs: number }): Api {
  const prepare = (route: RouteContract, input: CallInput = {}) => ({
    url: `${conn.url}${pathOf(route, input.params ?? {})}${queryOf(route, input.query)}`,
    headers: {
      accept: 'application/json',
      'user-agent': 'doorwatch-cli',
      ...(conn.token ? { authorization: `Bearer ${conn.token}` } : {}),
    },
  });
  const send = async (route: RouteContract, input: CallInput): Promise<unknown> => {
    const { url, headers } = prepare(route, input);
    const body = bodyOf(route, input.body);
    const started = Date.now();
    const timeoutMs = input.timeoutMs ?? options.timeoutMs;
    let res: Response;
    try {
      res = await fetch(url, {
        method: route.method,
        headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
        body,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      const timedOut = err instanceof Error && err.name === 'TimeoutError';
      throw new CliError(
        EXIT.unavailable,
        timedOut ? 'timeout' : 'unreachable',
        `cannot reach Doorwatch at ${conn.url}: ${describeNetworkError(err, timeoutMs)}`,
      );
    }
    if (options.verbose) process.stderr.write(`${route.method} ${url} → ${res.status} in ${Date.now() - started} ms\n`);
    if (!res.ok) throw await answerError(res, route, conn);
    try {
      return await res.json();
    } catch {
      throw new CliError(EXIT.unavailable, 'bad_answer', `${conn.url} did not answer with JSON: is it a Doorwatch?`);
    }
  };
  const parse = <S extends z.ZodType>(schema: S, body: unknown, route: RouteContract): z.output<S> => {
    const parsed = schema.safeParse(body);
    if (parsed.success) return parsed.data;
    const where = parsed.error.issues[0]?.path.join('.') ?? '';
    throw new CliError(
      EXIT.unavailable,
      'bad_answer',
      `the answer of ${route.operationId} does not match this CLI's contract (${where}): is the CLI as new as the server?`,
    );
  };
  return {
    connection: conn,
    prepare,
    async call<C extends RouteContract>(route: C, input: CallInput = {}): Promise<Ok<C>> {
      const schema = route.responses[200]?.schema;
      const body = await send(route, input);
      return (schema ? parse(schema, body, route) : body) as Ok<C>;
    },
    async callAs<S extends z.ZodType>(route: RouteContract, input: CallInput, schema: S) {
      return parse(schema, await send(route, input), route);
    },
  };
}
