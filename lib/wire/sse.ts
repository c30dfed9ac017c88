// Server-sent events: the wire format both sides of the simulator speak. Writing is ours;
// reading uses eventsource-parser (the WHATWG parsing rules: CR, LF and CRLF line ends,
// comments, ids of any text, `retry:`), because a resume simulator must read the wire right.
import { createParser, type EventSourceParser } from 'eventsource-parser';

export interface SseEvent {
  /** The `id:` field as the server wrote it, or null when the event carried none (terminal events). */
  id: string | null;
  event: string;
  data: string;
}

/** What the simulated server writes; its ids are the extension's integers. */
export interface OutgoingSseEvent {
  id: number | string | null;
  event: string;
  data: string;
}

/** Serialises one event. `id` null → no id line (the client's cursor does not move). */
export function formatSse(event: OutgoingSseEvent): string {
  const lines: string[] = [];
  if (event.id !== null) lines.push(`id: ${event.id}`);
  lines.push(`event: ${event.event}`);
  for (const line of event.data.split('\n')) lines.push(`data: ${line}`);
  return `${lines.join('\n')}\n\n`;
}

/** Incremental parser: feed chunks, get complete events (fields split across chunks are fine). */
export class SseParser {
  private readonly parser: EventSourceParser;
  private ready: SseEvent[] = [];
  /** The server's last `retry:` (reconnection delay in ms), or null if it sent none. */
  retryMs: number | null = null;

  constructor() {
    this.parser = createParser({
      onEvent: (m) => this.ready.push({ id: m.id ?? null, event: m.event ?? 'message', data: m.data }),
      onRetry: (ms) => {
        this.retryMs = ms;
      },
    });
  }

  push(chunk: string): SseEvent[] {
    this.parser.feed(chunk);
    const out = this.ready;
    this.ready = [];
    return out;
  }
}
