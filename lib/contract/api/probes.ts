// Door probes over the API (docs/probes.md): an admin sets a server's probe target and runs it on
// demand; viewers read the history. The credential value goes in, never out.
import { z } from 'zod';
import { ZProbeResult, PROBE_VERDICTS } from '@/lib/contract/probe-result';
import { ZIsoMs, zLimitParam, zListTotal } from './common';
import { zRepeatable } from './route-contract';

/** A step's deadline per target: the default fits a server that offers its upgrade up to ~15 s after opening. */
export const PROBE_STEP_TIMEOUT_DEFAULT_SECONDS = 20;
export const PROBE_STEP_TIMEOUT_MIN_SECONDS = 4;
/** A run-now request waits for the whole run: four steps of at most this (and their cleanup). */
export const PROBE_STEP_TIMEOUT_MAX_SECONDS = 60;

export const ZProbeTargetRequest = z.object({
  /** The MCP endpoint on the upgrade extension, http(s), no credentials in it. */
  url: z.string().max(2048),
  /** A header sent on every probe request; its value is sealed at rest and never returned. Omit to keep the stored one, null to remove it. */
  credential: z
    .object({ header: z.string().min(1).max(128), value: z.string().min(1).max(4096) })
    .nullable()
    .optional(),
  intervalSeconds: z
    .int()
    .min(1)
    .max(7 * 24 * 3600)
    .default(300),
  enabled: z.boolean().default(true),
  /** How long each of the four steps may take, the wait for the server's upgrade offer included; at least the idle wait (3 s) plus a second. */
  stepTimeoutSeconds: z
    .int()
    .min(PROBE_STEP_TIMEOUT_MIN_SECONDS)
    .max(PROBE_STEP_TIMEOUT_MAX_SECONDS)
    .default(PROBE_STEP_TIMEOUT_DEFAULT_SECONDS),
});
export type TProbeTargetRequest = z.output<typeof ZProbeTargetRequest>;

export const ZProbeTargetView = z.object({
  server: z.string(),
  url: z.string(),
  /** The credential's header name, and whether a value is set (the value itself is never shown). */
  credentialHeader: z.string().nullable(),
  credentialSet: z.boolean(),
  /** Set when the credential is stored unencrypted: what to do about it. */
  credentialWarning: z.string().nullable(),
  intervalSeconds: z.int(),
  enabled: z.boolean(),
  stepTimeoutSeconds: z.int(),
  lastRunAt: ZIsoMs.nullable(),
  createdAt: ZIsoMs,
  updatedAt: ZIsoMs,
});
export type TProbeTargetView = z.infer<typeof ZProbeTargetView>;

export const ZProbeRunView = z.object({
  id: z.string(),
  server: z.string(),
  startedAt: ZIsoMs,
  durationMs: z.int(),
  verdict: z.enum(PROBE_VERDICTS),
  trigger: z.enum(['schedule', 'manual']),
  /** Per step: answer, latency, classification, the sessions it opened and the redacted transcript. */
  result: ZProbeResult,
});
export type TProbeRunView = z.infer<typeof ZProbeRunView>;

export const PROBE_HISTORY_DEFAULT_LIMIT = 20;
export const ZProbeHistoryQuery = z.object({
  verdict: zRepeatable(z.enum(PROBE_VERDICTS)).meta({
    description: `Repeatable or comma-separated: only runs with these verdicts (${PROBE_VERDICTS.join(', ')})`,
  }),
  limit: zLimitParam(PROBE_HISTORY_DEFAULT_LIMIT, 200),
});

export const ZProbeHistoryResponse = z.object({
  target: ZProbeTargetView.nullable(),
  /** Newest first, at most `limit`. */
  runs: z.array(ZProbeRunView),
  ...zListTotal('runs'),
});
export type TProbeHistoryResponse = z.infer<typeof ZProbeHistoryResponse>;
