// Which scheduled jobs this process leads right now, as its leader leases last found (a lease
// records each answer of acquire()). Process-wide (lib/config/process-state.ts) so /metrics, in
// another module copy than the schedules, reads the same map: doorwatch_leader{job}.
import { processSingleton } from '@/lib/config/process-state';

type Leadership = Map<string, boolean>;

const leadership = (): Leadership => processSingleton<Leadership>('doorwatchLeadership', () => new Map());

export function recordLeadership(job: string, leading: boolean): void {
  leadership().set(job, leading);
}

/** Every job with a lease in this process, and whether it leads it. */
export function leadershipByJob(): ReadonlyMap<string, boolean> {
  return leadership();
}
