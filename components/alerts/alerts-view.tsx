'use client';
// The Alerts page: what fires now, the rules (admins create, edit, disable and delete them;
// viewers read), where notifications go, and the history with each notification's fate.
import { SignedInOperator } from '@/components/signed-in-operator';
import { ContactPointsPanel } from './contact-points-panel';
import { FiringPanel } from './firing-panel';
import { HistoryPanel } from './history-panel';
import { RulesPanel } from './rules-panel';

export function AlertsView() {
  return <SignedInOperator>{(operator) => <Alerts admin={operator.role === 'admin'} />}</SignedInOperator>;
}

function Alerts({ admin }: { admin: boolean }) {
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
