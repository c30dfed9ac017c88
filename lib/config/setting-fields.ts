// The field kinds the settings schema is built of (settings.ts, oidc-settings.ts): blank is unset,
// whole numbers and numbers with bounds named in their error.
import { z } from 'zod';

/** Unset and blank are the same: the default applies. Values are trimmed. */
export const trimmed = (v: unknown) => (typeof v === 'string' ? v.trim() || undefined : v);

export function wholeNumber(o: { default: number; min: number; max?: number; description: string }) {
  const bounds = o.max === undefined ? `>= ${o.min}` : `from ${o.min} to ${o.max}`;
  const n = z
    .string()
    .regex(/^\d+$/, { error: `must be a whole number ${bounds}` })
    .transform(Number)
    .pipe(
      z
        .number()
        .min(o.min, { error: `must be a whole number ${bounds}` })
        .max(o.max ?? Number.MAX_SAFE_INTEGER, { error: `must be a whole number ${bounds}` }),
    );
  return z
    .preprocess(trimmed, n.optional())
    .transform((v) => v ?? o.default)
    .describe(o.description);
}

export function positiveNumber<D extends number | undefined>(o: { default: D; min: number; description: string }) {
  const n = z
    .string()
    .transform(Number)
    .pipe(z.number({ error: 'must be a number' }).min(o.min, { error: `must be a number >= ${o.min}` }));
  return z
    .preprocess(trimmed, n.optional())
    .transform((v) => v ?? o.default)
    .describe(o.description);
}
