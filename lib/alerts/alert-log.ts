// What the alert machinery tells the operator's log, in one place (the structured logger replaces
// console here). Never a secret: contact points are named by name and id, not URL.
import { componentLogger } from '@/lib/log/logger';
const log = () => componentLogger('alerts');
const firstLine = (err: unknown) => (err instanceof Error ? err.message.split('\n')[0] : String(err));

export const alertLog = {
  transition: (rule: string, kind: string, value: number | null, server: string) =>
    log().info({ rule, server, transition: kind, value }, `alert ${kind}`),
  measureFailed: (rule: string, err: unknown) => log().error({ rule, err: firstLine(err) }, 'measuring failed (will retry)'),
  deliveryFailed: (id: string, contactPoint: string, error: string, final: boolean) =>
    log()[final ? 'error' : 'warn'](
      { delivery: id, contactPoint, err: error },
      final ? 'notification failed for good' : 'notification failed (will retry)',
    ),
  runFailed: (err: unknown) => log().error({ err: firstLine(err) }, 'alert evaluation failed (will retry)'),
};
