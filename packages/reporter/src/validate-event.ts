// The reporter's own check before buffering: the envelope fields ingest needs to store or
// dead-letter an event by id. (Per-type `data` is checked by the server, which answers 207.)
import { EVENT_ID_PATTERN } from './ids.js';

/** A problem an operator can act on, or null when the event can be sent. */
export function validateEvent(event: unknown): string | null {
  if (typeof event !== 'object' || event === null || Array.isArray(event)) return 'event must be an object';
  const e = event as Record<string, unknown>;
  if (typeof e.id !== 'string' || !EVENT_ID_PATTERN.test(e.id)) {
    return 'event.id must be a string matching [A-Za-z0-9._:-]{1,128} (use newEventId())';
  }
  for (const key of ['token', 'type', 'at'] as const) {
    if (typeof e[key] !== 'string' || e[key] === '') return `event.${key} must be a non-empty string`;
  }
  if (e.seq !== undefined && !(typeof e.seq === 'number' && Number.isInteger(e.seq) && e.seq >= 0)) {
    return 'event.seq must be a non-negative integer';
  }
  if (e.data !== undefined && (typeof e.data !== 'object' || e.data === null || Array.isArray(e.data))) {
    return 'event.data must be an object';
  }
  return null;
}

/** The id of whatever was passed to report(), for error reports ('' when it has none). */
export function idOf(event: unknown): string | null {
  const id = (event as { id?: unknown } | null)?.id;
  return typeof id === 'string' ? id : null;
}
