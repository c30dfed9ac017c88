'use client';
// Firing alerts on every page (and notifications that finally failed), linking to the Alerts page.
import { keepWhole } from '@/components/keep-whole';
import { RowLink } from '@/components/row-link';
import { useAlertRules } from '@/lib/ui/queries';
import { useUrlState } from '@/lib/ui/url-state';

export function AlertBanner() {
  const { link, pathname } = useUrlState();
  const q = useAlertRules();
  const firing = q.data?.rules.filter((r) => r.status?.state === 'firing') ?? [];
  const failed = q.data?.failedDeliveries ?? 0;
  if (firing.length === 0 && failed === 0) return null;
  return (
    <div className={firing.length ? 'alarm alert-banner' : 'notice alert-banner'} role="alert" data-testid="alert-banner">
      <div className="alarm-text">
        {firing.length > 0 && (
          <strong>
            {firing.length === 1 ? 'Alert firing' : `${firing.length} alerts firing`}:{' '}
            {keepWhole(firing.map((r) => `${r.name} on ${r.firingServers.join(', ')}`).join('; '))}
          </strong>
        )}
        {failed > 0 && (
          <div className="small">{failed === 1 ? 'An alert notification' : `${failed} alert notifications`} failed in the last 24 h.</div>
        )}
      </div>
      {pathname !== '/alerts' && (
        <RowLink className="btn" href={link('/alerts')}>
          Alerts
        </RowLink>
      )}
    </div>
  );
}
