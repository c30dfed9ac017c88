// Server-sent events: the wire format both sides of the simulator speak.

export interface SseEvent {
  /** The `id:` field as a number, or null when the event carried none (terminal events). */
  id: number | null;
  event: string;
  data: string;
}

/** Serialises one event. `id` null → no id line (the client's cursor does not move). */
export function formatSse(event: SseEvent): string {
  const lines: string[] = [];
  if (event.id !== null) lines.push(`id: ${event.id}`);
  lines.push(`event: ${event.event}`);
  for (const line of event.data.split('\n')) lines.push(`data: ${line}`);
  return `${lines.join('\n')}\n\n`;
}

/** Incremental parser: feed chunks, get complete events (fields split across chunks are fine). */
export class SseParser {
  private buffer = '';

  push(chunk: string): SseEvent[] {
    this.buffer += chunk;
    const out: SseEvent[] = [];
    for (;;) {
      const end = this.buffer.indexOf('\n\n');
      if (end < 0) break;
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      let id: number | null = null;
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line === '' || line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        let value = colon < 0 ? '' : line.slice(colon + 1);
        if (value.startsWith(' ')) value = value.slice(1);
        if (field === 'id' && /^\d+$/.test(value)) id = Number(value);
        else if (field === 'event') event = value;
        else if (field === 'data') data.push(value);
      }
      out.push({ id, event, data: data.join('\n') });
    }
    return out;
  }
}
