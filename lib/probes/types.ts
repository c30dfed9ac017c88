// What a door probe observes: the four steps of issue 15 and the answer each one got.
// Plain data (JSON-serialisable) so results can be stored, scheduled and shown as they are.

/** The four steps, in the order a probe runs them. */
export const PROBE_STEPS = ['healthy', 'reset_at_door', 'reconnect_without_cursor', 'cursor_before_door'] as const;
export type ProbeStepName = (typeof PROBE_STEPS)[number];

/**
 * What the server answered:
 * - `upgraded`: the WebSocket handshake completed with subprotocol mcp.v1;
 * - `superseded`: the stream was closed with the terminal `session-superseded` event;
 * - `idle_stream`: 200 and an open stream with no event within the idle deadline (the deadlock);
 * - `second_upgrade`: a new `upgrade-accepted` (another event id) for the same token (dual negotiation);
 * - `conflict`: HTTP 409;
 * - `resumed`: an ordinary resume (events replayed after the cursor);
 * - `error`: anything else (transport error, other status, redirect, deadline) — see `detail`.
 */
export const OBSERVED_ANSWERS = ['upgraded', 'superseded', 'idle_stream', 'second_upgrade', 'conflict', 'resumed', 'error'] as const;
export type ObservedAnswer = (typeof OBSERVED_ANSWERS)[number];

export interface ProbeTarget {
  /** The server's MCP endpoint on the upgrade extension, e.g. `https://mcp.example.com/mcp`. */
  url: string;
  /** Optional credential sent on every request of the probe; its value is redacted in transcripts. */
  credential?: { header: string; value: string } | null;
}

export interface TranscriptEntry {
  /** Milliseconds since the step started. */
  t: number;
  /** `>` sent, `<` received, `!` local (reset, timeout, close). */
  dir: '>' | '<' | '!';
  text: string;
}

export interface Transcript {
  entries: TranscriptEntry[];
  /** Entries left out once the bound was reached. */
  omitted: number;
}

/** After `session-superseded`: a new session naming the burned token, upgraded to WebSocket. */
export interface RenegotiationResult {
  ok: boolean;
  detail: string | null;
  /** From sending the new session's request to the completed handshake. */
  latencyMs: number | null;
}

/** The part of a step result classification looks at. */
export interface StepObservation {
  step: ProbeStepName;
  answer: ObservedAnswer;
  /** Event id of the `upgrade-accepted` the step reached (the door), if it got that far. */
  doorEventId: number | null;
  /** The resume the step sent: its Last-Event-ID (null = none). Null for the healthy step. */
  resume: { lastEventId: number | null } | null;
  /** Status of a WebSocket handshake tried after the answer (101, 409, …), if one was tried. */
  handshakeStatus: number | null;
  /** Reset-at-door step only, after a refusal. */
  renegotiation: RenegotiationResult | null;
}

export interface StepResult extends StepObservation {
  /** What the probe saw, for a person: always set for `error`. */
  detail: string | null;
  /** HTTP status of the request that got the answer (the resume, or the handshake for `healthy`). */
  status: number | null;
  /** From sending that request to the answer (for `idle_stream`: the idle deadline that passed). */
  latencyMs: number | null;
  startedAt: string;
  durationMs: number;
  transcript: Transcript;
}
