// The raw wire transcript of one probe step, kept for the operator: request lines and headers,
// statuses, SSE events, WebSocket frames summarized. Secrets are redacted before anything is
// recorded, and the size is bounded so a chatty or hostile server cannot bloat a result. Once the
// bound is reached, what the verdict rests on (requests, statuses, the door and its answer, local
// events: everything but ordinary SSE events) still gets in by pushing out the latest ordinary
// events before it: noise ahead of the door cannot push the door out.
import type { Transcript, TranscriptEntry } from '@/lib/contract/probe-result';

const ALWAYS_SECRET = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);
export const REDACTED = '[redacted]';

export interface TranscriptLimits {
  /** Most entries kept (the rest are counted in `omitted`). */
  maxEntries: number;
  /** Longest text of one entry; longer ones are cut with an ellipsis. */
  maxEntryChars: number;
  /** Total characters kept across entries. */
  maxTotalChars: number;
}

export const DEFAULT_TRANSCRIPT_LIMITS: TranscriptLimits = { maxEntries: 200, maxEntryChars: 500, maxTotalChars: 16_000 };

export class TranscriptRecorder {
  private readonly entries: TranscriptEntry[] = [];
  /** Per entry: may it be pushed out for a kept one. */
  private readonly filler: boolean[] = [];
  private omitted = 0;
  private chars = 0;
  private readonly secretHeaders: Set<string>;
  private readonly secretValues: string[];

  constructor(
    private readonly startedAt: number,
    credential: { header: string; value: string } | null | undefined,
    private readonly limits: TranscriptLimits = DEFAULT_TRANSCRIPT_LIMITS,
  ) {
    this.secretHeaders = new Set(ALWAYS_SECRET);
    this.secretValues = [];
    if (credential) {
      this.secretHeaders.add(credential.header.toLowerCase());
      // A server may echo the credential in a body or event: scrub the value anywhere.
      if (credential.value.length > 0) this.secretValues.push(credential.value);
    }
  }

  /**
   * `keep` false: an ordinary entry (an SSE message) that a kept one may push out once the transcript is full.
   * `at`: the `performance.now()` reading the entry is stamped with, when the caller times from the same one.
   */
  record(dir: TranscriptEntry['dir'], text: string, keep = true, at = performance.now()): void {
    let clean = this.scrub(text);
    if (clean.length > this.limits.maxEntryChars) clean = `${clean.slice(0, this.limits.maxEntryChars - 1)}…`;
    const fits = () => this.entries.length < this.limits.maxEntries && this.chars + clean.length <= this.limits.maxTotalChars;
    while (keep && !fits()) {
      const i = this.filler.lastIndexOf(true);
      if (i < 0) break;
      this.chars -= this.entries[i].text.length;
      this.entries.splice(i, 1);
      this.filler.splice(i, 1);
      this.omitted += 1;
    }
    if (!fits()) {
      this.omitted += 1;
      return;
    }
    this.chars += clean.length;
    this.entries.push({ t: this.timeOf(at), dir, text: clean });
    this.filler.push(!keep);
  }

  /** Milliseconds since the step started: the clock of the entries and of the step's moments. */
  now(): number {
    return this.timeOf(performance.now());
  }

  /** A `performance.now()` reading on the step's clock. */
  timeOf(at: number): number {
    return Math.round(at - this.startedAt);
  }

  /** `Name: value` lines, secrets replaced. */
  headers(headers: Record<string, string | string[] | number | undefined>): string {
    return Object.entries(headers)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}: ${this.secretHeaders.has(k.toLowerCase()) ? REDACTED : Array.isArray(v) ? v.join(', ') : String(v)}`)
      .join('\n');
  }

  scrub(text: string): string {
    let out = text;
    for (const secret of this.secretValues) out = out.split(secret).join(REDACTED);
    return out;
  }

  snapshot(): Transcript {
    return { entries: [...this.entries], omitted: this.omitted };
  }
}
