/**
 * A door probe's result (lib/probes, docs/probes.md): per step the observed answer, its latency,
 * the redacted wire transcript, and the classification against the boundary rule. One schema
 * for storing, serving and showing results.
 */
import { z } from 'zod';

/** The four steps, in the order a probe runs them. */
export const PROBE_STEPS = ['healthy', 'reset_at_door', 'reconnect_without_cursor', 'cursor_before_door'] as const;
export type ProbeStepName = (typeof PROBE_STEPS)[number];

/** What the server answered (docs/probes.md, "Observed answers"). */
export const OBSERVED_ANSWERS = ['upgraded', 'superseded', 'idle_stream', 'second_upgrade', 'conflict', 'resumed', 'error'] as const;
export type ObservedAnswer = (typeof OBSERVED_ANSWERS)[number];

export const STEP_VERDICTS = ['pass', 'fail', 'error'] as const;
export type StepVerdict = (typeof STEP_VERDICTS)[number];

export const PROBE_VERDICTS = ['pass', 'fail', 'inconclusive'] as const;
export type ProbeVerdict = (typeof PROBE_VERDICTS)[number];

/** Why a step passed or failed, as a code a dashboard or alert rule can switch on. */
export const STEP_FINDINGS = [
  'upgraded',
  'refused',
  'resumed',
  'deadlock',
  'dual_negotiation',
  'conflict',
  'naive_resume',
  'over_refusal',
  'renegotiation_failed',
  'upgrade_rejected',
  'unexpected_answer',
  'probe_error',
] as const;
export type StepFinding = (typeof STEP_FINDINGS)[number];

/**
 * Where an address leads, as door probes judge it (lib/probes/address-class.ts, docs/probes.md
 * "Which addresses a probe may reach"). `reserved` (multicast, broadcast, Teredo, …) is never probed.
 */
export const ADDRESS_CLASSES = ['public', 'private', 'loopback', 'link-local', 'metadata', 'reserved'] as const;
export type AddressClass = (typeof ADDRESS_CLASSES)[number];
/** The classes DOORWATCH_PROBE_ALLOW may name. */
export const ALLOWABLE_ADDRESS_CLASSES = ['public', 'private', 'loopback', 'link-local', 'metadata'] as const;
export type AllowableAddressClass = (typeof ALLOWABLE_ADDRESS_CLASSES)[number];

const IsoMs = z.iso.datetime({ precision: 3 });
const ms = z.int().min(0);
const eventId = z.int().min(0);

export const ZTranscriptEntry = z.object({
  /** Milliseconds since the step started. */
  t: ms,
  /** `>` sent, `<` received, `!` local (reset, timeout, close). */
  dir: z.enum(['>', '<', '!']),
  text: z.string(),
});
export type TranscriptEntry = z.infer<typeof ZTranscriptEntry>;

export const ZTranscript = z.object({
  entries: z.array(ZTranscriptEntry),
  /** Entries left out once the bound was reached. */
  omitted: z.int().min(0),
});
export type Transcript = z.infer<typeof ZTranscript>;

/** After `session-superseded`: a new session naming the burned token, upgraded to WebSocket. */
export const ZRenegotiationResult = z.object({
  ok: z.boolean(),
  detail: z.string().nullable(),
  /** From sending the new session's request to the completed handshake. */
  latencyMs: ms.nullable(),
});
export type RenegotiationResult = z.infer<typeof ZRenegotiationResult>;

/** When the step saw each transition, in ms since the step started (the transcript's clock); null = not reached. */
export const ZStepMoments = z.object({
  /** `upgrade-accepted` read (the door). */
  door: ms.nullable(),
  /** The TCP reset sent (steps 2–4). */
  reset: ms.nullable(),
  /** The request that got the answer sent: the resume (steps 2–4) or the Upgrade (`healthy`). */
  request: ms.nullable(),
  /** Its answer observed (for `idle_stream`: when the idle deadline passed). */
  answer: ms.nullable(),
  /** `reset_at_door`: the renegotiated session's request sent, and its handshake's answer. */
  successorOpened: ms.nullable(),
  successorDone: ms.nullable(),
});
export type StepMoments = z.infer<typeof ZStepMoments>;

/** A step that did not connect because its target's address is one DOORWATCH_PROBE_ALLOW does not allow. */
export const ZProbeRefusal = z.object({
  code: z.literal('probe_target_forbidden'),
  /** The URL's host as given. */
  host: z.string(),
  /** The refused address: the literal, or the first resolved address the setting does not allow. */
  address: z.string(),
  addressClass: z.enum(ADDRESS_CLASSES),
});
export type ProbeRefusal = z.infer<typeof ZProbeRefusal>;

export const ZStepResult = z.object({
  step: z.enum(PROBE_STEPS),
  answer: z.enum(OBSERVED_ANSWERS),
  /** What the probe saw, for a person; always set for `error`. */
  detail: z.string().nullable(),
  /** Event id of the `upgrade-accepted` the step reached (the door), if it got that far. */
  doorEventId: eventId.nullable(),
  /** The resume the step sent: its Last-Event-ID (null = none). Null for the healthy step. */
  resume: z.object({ lastEventId: eventId.nullable() }).nullable(),
  /** HTTP status of the request that got the answer (the resume, or the handshake for `healthy`). */
  status: z.int().nullable(),
  /** From sending that request to the answer (for `idle_stream`: the idle deadline that passed). */
  latencyMs: ms.nullable(),
  /** Status of a WebSocket handshake tried after the answer (101, 409, …), if one was tried. */
  handshakeStatus: z.int().nullable(),
  /** `reset_at_door` only, after a refusal. */
  renegotiation: ZRenegotiationResult.nullable(),
  /** Session tokens the step opened, in order (the probed session, then a renegotiated one): the
   *  server reports them like any session, so they can be marked synthetic. */
  tokens: z.array(z.string()),
  startedAt: IsoMs,
  durationMs: ms,
  /** Absent on runs stored before moments were kept. */
  moments: ZStepMoments.optional(),
  /** Set when the step refused to connect (answer `error`, finding `probe_error`); absent otherwise. */
  refused: ZProbeRefusal.optional(),
  transcript: ZTranscript,
});
export type StepResult = z.infer<typeof ZStepResult>;

/** The part of a step result the classification looks at. */
export type StepObservation = Pick<StepResult, 'step' | 'answer' | 'doorEventId' | 'resume' | 'handshakeStatus' | 'renegotiation'>;

export const ZStepClassification = z.object({
  step: z.enum(PROBE_STEPS),
  expected: z.enum(OBSERVED_ANSWERS),
  observed: z.enum(OBSERVED_ANSWERS),
  verdict: z.enum(STEP_VERDICTS),
  finding: z.enum(STEP_FINDINGS),
  /** One sentence for the operator. */
  reason: z.string(),
});
export type StepClassification = z.infer<typeof ZStepClassification>;

export const ZProbeClassification = z.object({
  verdict: z.enum(PROBE_VERDICTS),
  steps: z.array(ZStepClassification),
});
export type ProbeClassification = z.infer<typeof ZProbeClassification>;

export const ZProbeResult = z.object({
  /** The probed URL (credentials are never part of it). */
  target: z.url(),
  startedAt: IsoMs,
  durationMs: ms,
  steps: z.array(ZStepResult),
  classification: ZProbeClassification,
});
export type ProbeResult = z.infer<typeof ZProbeResult>;
