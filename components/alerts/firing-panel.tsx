'use client';
// The rules firing now, with their value and since when.
import { Panel } from '@/components/panel';
import { RelTime } from '@/components/rel-time';
import { ListStates } from '@/components/states';
import { useAlertRules } from '@/lib/ui/queries';
import { useUrlState } from '@/lib/ui/url-state';
import { condition, fmtValue } from './alert-text';

export function FiringPanel() {
  const { global } = useUrlState();
  const q = useAlertRules();
  const firing = (q.data?.rules ?? []).filter((r) => r.status?.state === 'firing');
  return (
    <Panel id="h-firing" title="Firing now" aside={q.data ? `${firing.length} of ${q.data.rules.length} rules` : undefined}>
      <ListStates
        query={q}
        loadingLabel="Loading…"
        isEmpty={firing.length === 0}
        empty={
          <div className="calm" data-testid="no-firing">
            <strong>Nothing is firing.</strong>
          </div>
        }
      >
        <ul className="stack" data-testid="firing-alerts" style={{ listStyle: 'none', padding: 12, margin: 0 }}>
          {firing.map((r) => (
            <li key={r.id} className="alarm">
              <div className="alarm-text">
                <strong>
                  {r.name} on {r.firingServers.join(', ')}
                </strong>
                <div className="small">
                  {condition(r)} — now {fmtValue(r.status!.value)} · firing since <RelTime value={r.status!.since} tz={global.tz} />
                </div>
              </div>
            </li>
          ))}
        </ul>
      </ListStates>
    </Panel>
  );
}
