import { settings, type Settings } from '@/lib/config/settings';
import { monotonicMs } from '@/lib/time/steady-clock';

// Per-server token bucket in events per second. In-process: with several instances each
// enforces its own share, which is what a load balancer spreading requests gives anyway. Refill is
// measured on the monotonic clock: a step of the host clock neither empties a bucket (a step back
// would lock a server out for the step's length) nor fills one.
export interface RateDecision {
  allowed: boolean;
  retryAfterSeconds: number;
}

export class EventRateLimiter {
  private buckets = new Map<string, { tokens: number; at: number }>();
  constructor(
    readonly eventsPerSecond: number,
    readonly burst: number,
  ) {}

  take(server: string, events: number, now = monotonicMs()): RateDecision {
    if (!(this.eventsPerSecond > 0)) return { allowed: true, retryAfterSeconds: 0 };
    const b = this.buckets.get(server) ?? { tokens: this.burst, at: now };
    b.tokens = Math.min(this.burst, b.tokens + ((now - b.at) / 1000) * this.eventsPerSecond);
    b.at = now;
    this.buckets.set(server, b);
    if (b.tokens >= events) {
      b.tokens -= events;
      return { allowed: true, retryAfterSeconds: 0 };
    }
    const need = Math.min(events, this.burst) - b.tokens;
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(need / this.eventsPerSecond)) };
  }
}

export function rateLimiterFromEnv(s: Pick<Settings, 'DOORWATCH_INGEST_RATE' | 'DOORWATCH_INGEST_BURST'> = settings()): EventRateLimiter {
  const rate = s.DOORWATCH_INGEST_RATE;
  const burst = s.DOORWATCH_INGEST_BURST ?? Math.max(rate * 2, 1000);
  return new EventRateLimiter(rate, burst);
}
