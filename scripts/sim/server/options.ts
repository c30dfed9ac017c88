// What a simulated server is started with: its mode and the knobs of its session life.
import type { Reporter } from '@doorwatch/reporter';
import type { Ledger } from '../ledger';

export type ServerMode = 'refusing' | 'naive';

export interface SimServerOptions {
  name: string;
  mode: ServerMode;
  /** Where transitions go; null = not reported (unit use). */
  reporter: Reporter | null;
  ledger: Ledger;
  /** Idle timeout: nothing written to the session for this long ends it. Default 300 s. */
  idleTimeoutMs?: number;
  /** Interval of ordinary `message` events on a live, not-yet-upgrading session. Default 500 ms. */
  messageIntervalMs?: number;
  /** How long after opening a session the server offers the upgrade. */
  upgradeAfterMs: () => number;
  /** Called synchronously right after `upgrade-accepted` was written to a connected stream. */
  onUpgradeWritten?: (token: string, eventId: number) => void;
}
