import { randomBytes, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';

/** Event and message ids accepted by the Doorwatch ingest API. */
export const EVENT_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

const PREFIX_PATTERN = /^[A-Za-z0-9._:-]{1,32}$/;

/**
 * A fresh, globally unique event id (`evt_<uuid-v4>` by default), e.g.
 * `evt_3f2b8c1e-6a0d-4c52-9d2e-0b7c1a9e4f11`. Always matches EVENT_ID_PATTERN.
 *
 * Generate the id once, when the event happens, and keep it: the id is what
 * makes a re-reported event a duplicate instead of a second event.
 */
export function newEventId(prefix = 'evt'): string {
  if (!PREFIX_PATTERN.test(prefix)) {
    throw new TypeError(`newEventId: prefix must match ${PREFIX_PATTERN}`);
  }
  return `${prefix}_${randomUUID()}`;
}

/** Default `webhook-id` factory: one id per batch, reused on every retry of that batch. */
export function newMessageId(): string {
  return `msg_${randomUUID()}`;
}

export const INSTANCE_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/** Default reporter instance name: `<hostname>-<pid>-<4 random hex bytes>`, cut to the pattern. */
export function defaultInstance(): string {
  const host =
    hostname()
      .replace(/[^A-Za-z0-9._:-]/g, '_')
      .slice(0, 96) || 'host';
  return `${host}-${process.pid}-${randomBytes(4).toString('hex')}`;
}
