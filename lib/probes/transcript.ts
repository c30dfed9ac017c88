// The raw wire transcript of one probe step, kept for the operator: request lines and headers,
// statuses, SSE events, WebSocket frames summarized. Secrets are redacted before anything is
// recorded, and the size is bounded so a chatty or hostile server cannot bloat a result.
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

  record(dir: TranscriptEntry['dir'], text: string): void {
    if (this.entries.length >= this.limits.maxEntries || this.chars >= this.limits.maxTotalChars) {
      this.omitted += 1;
      return;
    }
    let clean = this.scrub(text);
    if (clean.length > this.limits.maxEntryChars) clean = `${clean.slice(0, this.limits.maxEntryChars - 1)}…`;
    this.chars += clean.length;
    this.entries.push({ t: Math.round(performance.now() - this.startedAt), dir, text: clean });
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
