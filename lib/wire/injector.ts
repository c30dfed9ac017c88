// Fault injector: real TCP resets (`socket.resetAndDestroy()`, an RST, not a FIN) of a client's
// SSE connection, either at random points of its life (a Poisson process while the connection
// is live) or at a chosen delay after the server wrote `upgrade-accepted` (the note used 40–90 ms).
import { drawMs, exponential, type MsRange, type Rng } from './random';

export interface ResetScheduleOptions {
  /** Random resets per second of live SSE connection (Poisson). 0 = none. */
  ratePerSec: number;
  /** Targeted resets: with probability `share`, reset `delayMs` after upgrade-accepted is written. */
  afterUpgrade?: { share: number; delayMs: MsRange };
}

/** The pure part: when to reset. */
export class ResetSchedule {
  constructor(
    private readonly options: ResetScheduleOptions,
    private readonly rng: Rng,
  ) {
    if (!(options.ratePerSec >= 0)) throw new RangeError('ratePerSec must be ≥ 0');
    const a = options.afterUpgrade;
    if (a && (!(a.share >= 0 && a.share <= 1) || a.delayMs[0] > a.delayMs[1] || a.delayMs[0] < 0)) {
      throw new RangeError('afterUpgrade needs 0 ≤ share ≤ 1 and 0 ≤ min ≤ max');
    }
  }

  /** Delay (ms) until the next random reset of a connection that just became live; null = never. */
  nextRandomDelay(): number | null {
    if (this.options.ratePerSec === 0) return null;
    return Math.max(1, Math.round(exponential(this.rng, 1000 / this.options.ratePerSec)));
  }

  /** Delay (ms) after upgrade-accepted at which to reset, or null for no targeted reset this time. */
  afterUpgradeDelay(): number | null {
    const a = this.options.afterUpgrade;
    if (!a || a.share === 0) return null;
    if (a.share < 1 && this.rng() >= a.share) return null;
    return drawMs(this.rng, a.delayMs);
  }
}

/** What the injector needs from a client. */
export interface Resettable {
  /** Resets the live SSE connection if there is one in a resettable phase; true if it did. */
  injectReset(): boolean;
}

export interface InjectorCounts {
  /** Resets actually applied to a live SSE connection. */
  resets: number;
  random: number;
  targeted: number;
}

/** The runtime part: one timer per live connection, plus targeted timers after upgrade-accepted. */
export class FaultInjector {
  private readonly timers = new Map<Resettable, NodeJS.Timeout>();
  private readonly targeted = new Set<NodeJS.Timeout>();
  private enabled = true;
  readonly counts: InjectorCounts = { resets: 0, random: 0, targeted: 0 };

  constructor(
    private readonly schedule: ResetSchedule,
    private readonly options: { maxResets?: number; onReset?: (counts: InjectorCounts) => void } = {},
  ) {}

  /** The client's connection became live and resettable. */
  armed(client: Resettable): void {
    if (!this.enabled || this.timers.has(client)) return;
    const delay = this.schedule.nextRandomDelay();
    if (delay === null) return;
    const timer = setTimeout(() => {
      this.timers.delete(client);
      this.fire(client, 'random');
    }, delay);
    this.timers.set(client, timer);
  }

  /** The client's connection is gone or no longer resettable. */
  disarmed(client: Resettable): void {
    const timer = this.timers.get(client);
    if (timer) clearTimeout(timer);
    this.timers.delete(client);
  }

  /** The server wrote upgrade-accepted on this client's stream. */
  upgradeWritten(client: Resettable): void {
    if (!this.enabled) return;
    const delay = this.schedule.afterUpgradeDelay();
    if (delay === null) return;
    const timer = setTimeout(() => {
      this.targeted.delete(timer);
      this.fire(client, 'targeted');
    }, delay);
    this.targeted.add(timer);
  }

  private fire(client: Resettable, kind: 'random' | 'targeted'): void {
    if (!this.enabled) return;
    if (!client.injectReset()) return;
    this.counts.resets += 1;
    this.counts[kind] += 1;
    if (this.options.maxResets !== undefined && this.counts.resets >= this.options.maxResets) this.stop();
    this.options.onReset?.(this.counts);
  }

  get active(): boolean {
    return this.enabled;
  }

  /** No more resets from now on. */
  stop(): void {
    this.enabled = false;
    for (const t of this.timers.values()) clearTimeout(t);
    for (const t of this.targeted) clearTimeout(t);
    this.timers.clear();
    this.targeted.clear();
  }
}
