// Request input checked against the route's zod schemas. A rejection is a 400 whose code names the
// first wrong parameter (`invalid_limit`, `invalid_flag`, … as the API has always answered) and
// whose details list every wrong parameter, so a caller can fix them all at once.
import type { z } from 'zod';
import { ApiError } from './api-error';
import { queryObject } from '@/lib/contract/api/route-contract';

export type InputPart = 'query' | 'params' | 'body';

/**
 * How a person would write the refused parameter: `flag=bogus`, not the issue's path `flag.1=`
 * (a repeated parameter's path carries its index, which the details keep for machines).
 */
function asWritten(part: InputPart, path: readonly PropertyKey[], raw: unknown): string {
  const [name, index] = path;
  if (name === undefined) return part;
  const value = raw && typeof raw === 'object' ? (raw as Record<string, unknown>)[String(name)] : undefined;
  const one = Array.isArray(value) && typeof index === 'number' ? value[index] : value;
  if (typeof one !== 'string') return `${String(name)}=`;
  return `${String(name)}=${one.length > 60 ? `${one.slice(0, 60)}…` : one}`;
}

function rejected(part: InputPart, error: z.ZodError, raw: unknown): ApiError {
  const issues = error.issues.map((i) => ({ parameter: i.path.join('.') || part, message: i.message }));
  const first = issues[0];
  const code = part === 'body' ? 'invalid_body' : `invalid_${first.parameter.split('.')[0]}`;
  const where = part === 'body' ? first.parameter : asWritten(part, error.issues[0].path, raw);
  return new ApiError(400, code, `${where}: ${first.message}`, {}, { in: part, issues });
}

/** NUL never belongs in a parameter, and PostgreSQL refuses it in text (which would be a 500). */
function refuseNul(part: InputPart, raw: Record<string, string | string[]>) {
  for (const [name, value] of Object.entries(raw)) {
    if ((Array.isArray(value) ? value : [value]).some((v) => v.includes('\0'))) {
      throw new ApiError(
        400,
        `invalid_${name}`,
        `${name}= must not contain NUL characters`,
        {},
        {
          in: part,
          issues: [{ parameter: name, message: 'must not contain NUL characters' }],
        },
      );
    }
  }
}

export function parseInput<S extends z.ZodType>(part: InputPart, schema: S, raw: unknown): z.output<S> {
  if (part !== 'body' && raw && typeof raw === 'object') refuseNul(part, raw as Record<string, string | string[]>);
  const result = schema.safeParse(raw);
  if (!result.success) throw rejected(part, result.error, raw);
  return result.data;
}

/** The query string as the schema's typed object, or a 400. */
export function parseQuery<S extends z.ZodObject>(schema: S, params: URLSearchParams): z.output<S> {
  return parseInput('query', schema, queryObject(schema, params));
}
