'use client';
// The Alerts page: what fires now, the rules (admins create, edit, disable and delete them;
// viewers read), where notifications go, and the history with each notification's fate.
import { ErrorState, Loading } from '@/components/states';
import { useMe } from '@/lib/ui/queries';
import { ContactPointsPanel } from './contact-points-panel';
import { FiringPanel } from './firing-panel';
import { HistoryPanel } from './history-panel';
import { RulesPanel } from './rules-panel';

export function AlertsView() {
  const me = useMe();
  if (me.isPending) return <Loading />;
  if (me.isError)
    return (
      <div className="panel">
        <ErrorState error={me.error} onRetry={() => void me.refetch()} />
      </div>
    );
  const admin = me.data.operator.role === 'admin';
  return (
    <div className="stack" data-testid="alerts">
      <div className="page-head">
        <h1>Alerts</h1>
      </div>
      <FiringPanel />
      <RulesPanel admin={admin} />
      <ContactPointsPanel admin={admin} />
      <HistoryPanel />
    </div>
  );
}
