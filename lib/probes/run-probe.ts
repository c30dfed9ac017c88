// The probe runner: the four steps of issue 15 against a server's MCP endpoint, over real HTTP
// and WebSocket, one after the other, each with its own deadline and its own cleanup.
//
//   healthy                   open → stream → upgrade-accepted → Upgrade (mcp.v1) → complete
//   reset_at_door             open → upgrade-accepted → TCP reset → resume with Last-Event-ID = door
//                             (→ after a refusal: a new session naming the burned token upgrades)
//   reconnect_without_cursor  open → upgrade-accepted → TCP reset → same token, no Last-Event-ID
//   cursor_before_door        open → upgrade-accepted → TCP reset → Last-Event-ID = door − 1
import { FaultInjector, ResetSchedule } from '@/lib/wire/injector';
import { createRng } from '@/lib/wire/random';
import type { SseEvent } from '@/lib/wire/sse';
import {
  PROBE_STEPS,
  type ObservedAnswer,
  type ProbeResult,
  type ProbeStepName,
  type RenegotiationResult,
  type StepMoments,
  type StepResult,
} from '@/lib/contract/probe-result';
import { settings as appSettings } from '@/lib/config/settings';
import type { AddressPolicy } from './address-policy';
import { classifyProbe } from './classify-probe';
import { checkCredentialHeader, parseProbeUrl } from './probe-target';
import { resolveTarget, type Resolver } from './resolve-target';
import { StepScope, type ProbeSession } from './step-scope';
import { TargetLimiter } from './target-limiter';
import { DEFAULT_TRANSCRIPT_LIMITS, TranscriptRecorder, type TranscriptLimits } from './transcript';
import type { ProbeTarget } from './types';
import { DEFAULT_WIRE_LIMITS, handshake, openStream, type ProbeStream, type WireLimits } from './wire';

export interface ProbeOptions {
  /** Deadline of each step, start to cleanup excluded. Default 10 s. */
  stepTimeoutMs?: number;
  /** No event this long after a resume = idle stream. Default 3 s (never the server's 300 s). */
  idleMs?: number;
  /** Delay between `upgrade-accepted` and the reset, inside the window. Default 50 ms (the note: 40–90 ms). */
  resetDelayMs?: number;
  /** Per-target concurrency; default: one probe per origin at a time, process-wide. */
  limiter?: TargetLimiter;
  transcriptLimits?: TranscriptLimits;
  /** Bytes a step reads at most (one SSE event, all its streams, one WebSocket message). */
  wireLimits?: WireLimits;
  /** Address classes the probe may connect to; default DOORWATCH_PROBE_ALLOW. */
  allow?: AddressPolicy;
  /** Name → addresses, once per step; default the system resolver (node:dns lookup). */
  resolver?: Resolver;
}

const sharedLimiter = new TargetLimiter(1);

interface Settings {
  stepTimeoutMs: number;
  idleMs: number;
  resetDelayMs: number;
  transcriptLimits: TranscriptLimits;
  wireLimits: WireLimits;
  allow: AddressPolicy;
  resolver?: Resolver;
}

/** Throws ProbeTargetError for an unusable target; otherwise always resolves with four step results. */
export async function runProbe(target: ProbeTarget, options: ProbeOptions = {}): Promise<ProbeResult> {
  const url = parseProbeUrl(target.url);
  if (target.credential) checkCredentialHeader(target.credential.header);
  const settings: Settings = {
    stepTimeoutMs: options.stepTimeoutMs ?? 10_000,
    idleMs: options.idleMs ?? 3_000,
    resetDelayMs: options.resetDelayMs ?? 50,
    transcriptLimits: options.transcriptLimits ?? DEFAULT_TRANSCRIPT_LIMITS,
    wireLimits: options.wireLimits ?? DEFAULT_WIRE_LIMITS,
    allow: options.allow ?? appSettings().DOORWATCH_PROBE_ALLOW,
    resolver: options.resolver,
  };
  // An idle stream is only told from a dead one if its deadline fits in the step's.
  if (!(settings.idleMs > 0 && settings.resetDelayMs >= 0 && settings.idleMs + settings.resetDelayMs < settings.stepTimeoutMs)) {
    throw new RangeError('probe options need idleMs > 0, resetDelayMs ≥ 0 and idleMs + resetDelayMs < stepTimeoutMs');
  }
  return (options.limiter ?? sharedLimiter).run(url.origin, async () => {
    const startedAt = new Date();
    const started = performance.now();
    const steps: StepResult[] = [];
    for (const step of PROBE_STEPS) steps.push(await runStep(step, url, target, settings));
    return {
      target: url.href,
      startedAt: startedAt.toISOString(),
      durationMs: Math.round(performance.now() - started),
      steps,
      classification: classifyProbe(steps),
    };
  });
}

/** What a step function returns; runStep adds the step, timing, the moments and the transcript. */
type StepOutcome = Omit<StepResult, 'step' | 'tokens' | 'startedAt' | 'durationMs' | 'transcript' | 'moments'>;

const noMoments = (): StepMoments => ({ door: null, reset: null, request: null, answer: null, successorOpened: null, successorDone: null });

// `resume` stays null until the step reaches the door and sends its resume: a step that never
// got there sent none.
const blank = (): StepOutcome => ({
  answer: 'error',
  detail: null,
  doorEventId: null,
  resume: null,
  status: null,
  latencyMs: null,
  handshakeStatus: null,
  renegotiation: null,
});

async function runStep(step: ProbeStepName, url: URL, target: ProbeTarget, settings: Settings): Promise<StepResult> {
  const startedAt = new Date();
  const started = performance.now();
  const transcript = new TranscriptRecorder(started, target.credential, settings.transcriptLimits);
  const headers = target.credential ? { [target.credential.header.toLowerCase()]: target.credential.value } : {};
  // Resolved once per step, every address checked; the step connects only to those (DNS pinned).
  const pinned = await resolveTarget(url, settings.allow, settings.stepTimeoutMs, settings.resolver);
  transcript.record('!', pinned.kind === 'pinned' ? pinned.detail : `not connecting: ${pinned.detail}`);
  const lookup = pinned.kind === 'pinned' ? pinned.lookup : () => undefined;
  const ctx = { target: url, lookup, headers, transcript, limits: settings.wireLimits, received: { bytes: 0 } };
  const scope = new StepScope(ctx, Math.max(0, settings.stepTimeoutMs - (performance.now() - started)));
  const moments = noMoments();
  let outcome: StepOutcome;
  try {
    if (pinned.kind === 'refused') outcome = { ...blank(), detail: pinned.detail, refused: pinned.refusal };
    else if (pinned.kind === 'error') outcome = { ...blank(), detail: pinned.detail };
    else outcome = step === 'healthy' ? await healthy(scope, moments) : await resumeStep(step, scope, settings, moments);
  } catch (err) {
    outcome = { ...blank(), detail: `probe failed: ${err instanceof Error ? err.message : String(err)}` };
  } finally {
    await scope.dispose();
  }
  return {
    step,
    ...outcome,
    detail: outcome.detail === null ? null : transcript.scrub(outcome.detail),
    renegotiation: outcome.renegotiation && {
      ...outcome.renegotiation,
      detail: outcome.renegotiation.detail && transcript.scrub(outcome.renegotiation.detail),
    },
    tokens: [...scope.tokens],
    startedAt: startedAt.toISOString(),
    durationMs: Math.round(performance.now() - started),
    moments,
    transcript: transcript.snapshot(),
  };
}

// --- reaching the door -------------------------------------------------------------------

interface Door {
  session: ProbeSession;
  stream: ProbeStream;
  eventId: number;
  upgradeUrl: URL;
  /** When `upgrade-accepted` was read, on the transcript's clock. */
  at: number;
}

type Failure = { failed: true; answer: ObservedAnswer; detail: string; status: number | null; latencyMs: number | null };

function failure(answer: ObservedAnswer, detail: string, status: number | null = null, latencyMs: number | null = null): Failure {
  return { failed: true, answer, detail, status, latencyMs };
}

function statusFailure(status: number, location: string | null, latencyMs: number, what: string): Failure {
  if (status === 409) return failure('conflict', `${what} answered 409`, status, latencyMs);
  if (status >= 300 && status < 400) {
    return failure(
      'error',
      `${what} answered a redirect (${status}${location ? ` to ${location}` : ''}); probes never follow redirects`,
      status,
      latencyMs,
    );
  }
  return failure('error', `${what} answered ${status}`, status, latencyMs);
}

/** Where the `upgrade-accepted` event says to upgrade: only on the probed origin. */
function upgradeUrlOf(event: SseEvent, target: URL): URL | string {
  let raw: unknown;
  try {
    raw = (JSON.parse(event.data) as { url?: unknown }).url;
  } catch {
    return 'upgrade-accepted data is not JSON';
  }
  if (typeof raw !== 'string') return 'upgrade-accepted data has no "url"';
  let url: URL;
  try {
    url = new URL(raw, target);
  } catch {
    return `upgrade-accepted url "${raw}" is not a URL`;
  }
  if (url.protocol === 'http:') url.protocol = 'ws:';
  else if (url.protocol === 'https:') url.protocol = 'wss:';
  const expected = target.protocol === 'https:' ? 'wss:' : 'ws:';
  if (url.protocol !== expected || url.host !== target.host) return `upgrade-accepted url "${raw}" leaves the probed origin; not followed`;
  return url;
}

/** Opens a session and reads its stream until `upgrade-accepted` (the door). */
async function reachDoor(scope: StepScope, extra: Record<string, string>): Promise<Door | Failure> {
  const opened = await openStream(scope.ctx, extra, scope.remaining());
  if (opened.kind === 'error') return failure('error', `opening a session: ${opened.detail}`);
  if (opened.kind === 'status') return statusFailure(opened.status, opened.location, opened.latencyMs, 'opening a session');
  const stream = scope.stream(opened.stream);
  if (!opened.sessionId) return failure('error', 'the new session has no Mcp-Session-Id header', opened.status);
  const session = scope.session(opened.sessionId);
  for (;;) {
    const read = await stream.next(scope.remaining());
    if (read.kind === 'timeout') return failure('error', 'no upgrade-accepted before the step deadline');
    if (read.kind === 'end')
      return failure('error', `the new session's stream ended before upgrade-accepted${read.detail ? ` (${read.detail})` : ''}`);
    const { event } = read;
    if (event.event !== 'upgrade-accepted') continue;
    const at = scope.ctx.transcript.now();
    // The upgrade extension numbers its SSE events (docs/contract.md); the door's id is that number.
    const eventId = event.id !== null && /^\d{1,15}$/.test(event.id) ? Number(event.id) : null;
    if (eventId === null)
      return failure('error', `upgrade-accepted carries ${event.id === null ? 'no event id' : `a non-numeric event id "${event.id}"`}`);
    const upgradeUrl = upgradeUrlOf(event, scope.ctx.target);
    if (typeof upgradeUrl === 'string') return failure('error', upgradeUrl);
    return { session, stream, eventId, upgradeUrl, at };
  }
}

/** Handshake, and on success hand the WebSocket to the scope (the session ends when it closes). */
async function upgrade(scope: StepScope, session: ProbeSession, url: URL) {
  const result = await handshake(scope.ctx, url, Math.max(1, scope.remaining()));
  if (result.kind === 'open') {
    scope.webSocket(result.ws);
    session.alive = false;
  }
  return result;
}

// --- the steps ---------------------------------------------------------------------------

async function healthy(scope: StepScope, moments: StepMoments): Promise<StepOutcome> {
  const out = blank();
  const door = await reachDoor(scope, {});
  if ('failed' in door) return { ...out, ...pick(door) };
  out.doorEventId = door.eventId;
  moments.door = door.at;
  moments.request = scope.ctx.transcript.now();
  const result = await upgrade(scope, door.session, door.upgradeUrl);
  moments.answer = scope.ctx.transcript.now();
  out.latencyMs = result.latencyMs;
  if (result.kind === 'open') return { ...out, answer: 'upgraded', status: 101, handshakeStatus: 101 };
  if (result.kind === 'error') return { ...out, detail: result.detail };
  return { ...out, ...pick(statusFailure(result.status, null, result.latencyMs, 'the handshake')), handshakeStatus: result.status };
}

function pick(f: Failure): Pick<StepOutcome, 'answer' | 'detail' | 'status' | 'latencyMs'> {
  return { answer: f.answer, detail: f.detail, status: f.status, latencyMs: f.latencyMs };
}

/** The step's cursor relative to the door; undefined = the step cannot be made. */
function cursorFor(step: ProbeStepName, door: number): number | null | undefined {
  if (step === 'reset_at_door') return door;
  if (step === 'reconnect_without_cursor') return null;
  return door > 0 ? door - 1 : undefined;
}

/** Drops the stream with a real TCP reset `delayMs` after upgrade-accepted, via the sim's injector. */
function resetAfterUpgrade(scope: StepScope, stream: ProbeStream, delayMs: number, moments: StepMoments): Promise<boolean> {
  return new Promise((resolve) => {
    const schedule = new ResetSchedule({ ratePerSec: 0, afterUpgrade: { share: 1, delayMs: [delayMs, delayMs] } }, createRng(1));
    const timer = setTimeout(() => resolve(false), Math.min(scope.remaining(), delayMs + 1_000));
    const injector = new FaultInjector(schedule, {
      maxResets: 1,
      onReset: () => {
        moments.reset = scope.ctx.transcript.now();
        clearTimeout(timer);
        resolve(true);
      },
    });
    scope.defer(() => {
      clearTimeout(timer);
      injector.stop();
    });
    injector.upgradeWritten(stream);
  });
}

async function resumeStep(step: ProbeStepName, scope: StepScope, settings: Settings, moments: StepMoments): Promise<StepOutcome> {
  const out = blank();
  const door = await reachDoor(scope, {});
  if ('failed' in door) return { ...out, ...pick(door) };
  out.doorEventId = door.eventId;
  moments.door = door.at;
  const cursor = cursorFor(step, door.eventId);
  if (cursor === undefined) return { ...out, detail: `the door is event ${door.eventId}: there is no cursor before it` };
  if (!(await resetAfterUpgrade(scope, door.stream, settings.resetDelayMs, moments))) {
    return {
      ...out,
      detail: 'the stream closed by itself after upgrade-accepted, before the probe could cut it ahead of the WebSocket handshake',
    };
  }

  const resumeHeaders: Record<string, string> = { 'mcp-session-id': door.session.token };
  if (cursor !== null) resumeHeaders['last-event-id'] = String(cursor);
  out.resume = { lastEventId: cursor };
  // The answer's latency and moment: from the resume to its answer, never what follows it. Both ends are
  // the readings the transcript's entries carry (the request's, and the event's as it came off the wire),
  // so a process starved of CPU between reading an event and handling it does not lengthen the latency
  // (CI under load measured 35 ms against 14 ms between the two entries).
  const sent = performance.now();
  moments.request = scope.ctx.transcript.timeOf(sent);
  const since = (at = performance.now()) => {
    moments.answer = scope.ctx.transcript.timeOf(at);
    return Math.round(at - sent);
  };
  // A server that replays nothing may not even flush its response headers: from the client's
  // side that is the same idle stream, so the headers get the idle deadline too.
  const headerWait = Math.min(settings.idleMs, scope.remaining());
  const opened = await openStream(scope.ctx, resumeHeaders, headerWait, sent);
  if (opened.kind !== 'stream') moments.answer = scope.ctx.transcript.now();
  if (opened.kind === 'error') {
    if (opened.timedOut && headerWait === settings.idleMs) {
      return {
        ...out,
        answer: 'idle_stream',
        detail: `no response, not even headers, for ${settings.idleMs} ms: the request is held open`,
        latencyMs: opened.latencyMs,
      };
    }
    return { ...out, detail: `resuming: ${opened.detail}`, latencyMs: opened.latencyMs };
  }
  if (opened.kind === 'status') return { ...out, ...pick(statusFailure(opened.status, opened.location, opened.latencyMs, 'the resume')) };
  out.status = opened.status;
  const stream = scope.stream(opened.stream);

  let replayed = 0;
  for (;;) {
    const wait = Math.min(settings.idleMs, scope.remaining());
    const read = await stream.next(wait);
    if (read.kind === 'timeout') {
      if (wait < settings.idleMs) return { ...out, detail: 'the step deadline passed before the idle deadline', latencyMs: since() };
      if (replayed > 0) return { ...out, answer: 'resumed', detail: `replayed ${replayed} event(s), then idle`, latencyMs: since() };
      return { ...out, answer: 'idle_stream', detail: `200 and no event for ${settings.idleMs} ms`, latencyMs: since() };
    }
    if (read.kind === 'end') {
      return {
        ...out,
        detail: `the resumed stream ended without session-superseded${replayed ? ` after ${replayed} event(s)` : ''}${read.detail ? ` (${read.detail})` : ''}`,
        latencyMs: since(),
      };
    }
    const { event } = read;
    if (event.event === 'session-superseded') {
      door.session.alive = false; // the token is burned: nothing to close on the server
      const latencyMs = since(read.at);
      const renegotiation = step === 'reset_at_door' ? await renegotiate(scope, door.session.token, moments) : null;
      return { ...out, answer: 'superseded', latencyMs, renegotiation };
    }
    if (event.event !== 'upgrade-accepted') {
      replayed += 1;
      continue;
    }
    const latencyMs = since(read.at);
    const answer: ObservedAnswer = event.id === String(door.eventId) ? 'resumed' : 'second_upgrade';
    const detail =
      answer === 'resumed'
        ? `replayed upgrade-accepted ${event.id}`
        : `second upgrade-accepted ${event.id} while ${door.eventId} is pending`;
    // Try the handshake it offers: a replay must still upgrade, a second negotiation shows its 409.
    const url = upgradeUrlOf(event, scope.ctx.target);
    if (typeof url === 'string') return { ...out, answer, detail: `${detail}; ${url}`, latencyMs };
    const result = await upgrade(scope, door.session, url);
    const handshakeStatus = result.kind === 'open' ? 101 : result.kind === 'status' ? result.status : null;
    return {
      ...out,
      answer,
      detail: result.kind === 'error' ? `${detail}; ${result.detail}` : `${detail}; handshake ${handshakeStatus}`,
      latencyMs,
      handshakeStatus,
    };
  }
}

/** After a refusal: a fresh session naming the burned token must reach its door and upgrade. */
async function renegotiate(scope: StepScope, burned: string, moments: StepMoments): Promise<RenegotiationResult> {
  const started = performance.now();
  moments.successorOpened = scope.ctx.transcript.now();
  const door = await reachDoor(scope, { 'mcp-previous-session': burned });
  if ('failed' in door) return { ok: false, detail: door.detail, latencyMs: null };
  const result = await upgrade(scope, door.session, door.upgradeUrl);
  moments.successorDone = scope.ctx.transcript.now();
  const latencyMs = Math.round(performance.now() - started);
  if (result.kind === 'open') return { ok: true, detail: null, latencyMs };
  return {
    ok: false,
    detail: result.kind === 'error' ? result.detail : `the new session's handshake answered ${result.status}`,
    latencyMs,
  };
}
