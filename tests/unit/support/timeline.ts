/** Test helpers: build validated events at millisecond offsets from a fixed origin. */
import { ZEvent, type DoorwatchEvent, type EventType } from '@/lib/contract/event';

export const T0 = Date.parse('2026-11-29T10:00:00.000Z');
export const isoAt = (offsetMs: number): string => new Date(T0 + offsetMs).toISOString();

export interface EventOpts {
  id?: string;
  seq?: number;
  token?: string;
}

export class Timeline {
  readonly events: DoorwatchEvent[] = [];
  private n = 0;
  constructor(readonly token = 'tok-A') {}

  add(type: EventType, offsetMs: number, data: Record<string, unknown> = {}, opts: EventOpts = {}): this {
    this.n += 1;
    const raw = {
      id: opts.id ?? `${this.token}.e${String(this.n).padStart(3, '0')}`,
      token: opts.token ?? this.token,
      type,
      at: isoAt(offsetMs),
      ...(opts.seq === undefined ? {} : { seq: opts.seq }),
      data,
    };
    this.events.push(ZEvent.parse(raw));
    return this;
  }

  opened(t: number, previousToken?: string) {
    return this.add('session.opened', t, previousToken === undefined ? {} : { previousToken });
  }
  upgrade(t: number, eventId: number) {
    return this.add('upgrade.accepted', t, { eventId });
  }
  completed(t: number) {
    return this.add('upgrade.completed', t);
  }
  rejected(t: number, status: number) {
    return this.add('upgrade.rejected', t, { status });
  }
  dropped(t: number) {
    return this.add('stream.dropped', t, { reason: 'tcp_reset' });
  }
  resume(t: number, lastEventId: number | null) {
    return this.add('resume.requested', t, { lastEventId });
  }
  refused(t: number) {
    return this.add('resume.refused', t, { reason: 'session-superseded' });
  }
  accepted(t: number, replayed = 0) {
    return this.add('resume.accepted', t, { replayed });
  }
  timeout(t: number) {
    return this.add('session.timeout', t, { idleMs: 300_000 });
  }
  closed(t: number) {
    return this.add('session.closed', t);
  }
}

/** Open session, durable upgrade-accepted (event id 5), then the transport drops. */
export function pendingUpgrade(token = 'tok-A'): Timeline {
  return new Timeline(token).opened(0).upgrade(1_000, 5).dropped(1_050);
}
