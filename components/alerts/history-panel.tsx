'use client';
// Every state change of every rule, newest first, filterable by kind and by rule (`rule=` in the URL,
// as an incident's timeline links it), with each notification's fate.
import { DataTable, Panel } from '@/components/panel';
import { toggled } from '@/components/list-page';
import { RelTime } from '@/components/rel-time';
import { RowLink } from '@/components/row-link';
import { Empty, ListStates } from '@/components/states';
import { ZAlertTransitionKind, type TAlertTransition, type TAlertTransitionKind, type TDeliverySummary } from '@/lib/contract/api/alerts';
import { fmtInt, fmtMatchCount } from '@/lib/ui/format';
import { useAlertHistory, useAlertRules } from '@/lib/ui/queries';
import { useUrlState } from '@/lib/ui/url-state';
import { KIND_TONE, condition, fmtValue } from './alert-text';

const DELIVERY_TONE = {
  delivered: 'good',
  pending: 'warn',
  failed: 'bad',
  superseded: '',
  held: 'warn',
  summarized: '',
  suppressed: '',
} as const;

function DeliveryChip({ d }: { d: TDeliverySummary }) {
  const what =
    d.status === 'failed'
      ? `failed after ${d.attempts} attempts: ${d.lastError ?? ''}`
      : d.status === 'pending'
        ? `retrying (${d.attempts} attempts${d.lastError ? `: ${d.lastError}` : ''})`
        : d.status === 'superseded'
          ? 'superseded by a newer change'
          : d.status === 'held' || d.status === 'summarized'
            ? `held back by the rate bound${d.status === 'summarized' ? ' (counted in a summary)' : ''}`
            : 'delivered';
  return (
    <span
      className={`chip ${DELIVERY_TONE[d.status]}`}
      title={`webhook-id ${d.id}`}
      data-testid={`delivery-${d.status}`}
      style={{ marginRight: 4 }}
    >
      {d.contactPointName ?? 'removed contact point'}: {what}
    </span>
  );
}

const HISTORY_KINDS = ZAlertTransitionKind.options;

/** The one rule the history is narrowed to, by name (its id if it was deleted), and the way back to all. */
function RuleFilter({ id, onClear }: { id: string; onClear: () => void }) {
  const rules = useAlertRules();
  const name = rules.data?.rules.find((r) => r.id === id)?.name ?? id;
  return (
    <div className="field" data-testid="history-rule-filter">
      <span className="small muted">Rule</span>
      <span className="chip neutral">{name}</span>
      <button type="button" className="btn btn-xs btn-ghost" onClick={onClear} data-testid="history-rule-clear">
        Every rule
      </button>
    </div>
  );
}

export function HistoryPanel() {
  const { global, link, get, set } = useUrlState();
  // Kinds in the URL (?kind=firing,resolved), so a link to "what fired" keeps its filter.
  const kinds = (get('kind') ?? '').split(',').filter((k): k is TAlertTransitionKind => (HISTORY_KINDS as readonly string[]).includes(k));
  const rule = get('rule');
  const q = useAlertHistory(global.refresh, kinds, rule);
  const rows: TAlertTransition[] = q.data?.transitions ?? [];
  return (
    <Panel
      id="h-history"
      title="History"
      aside={
        q.data ? (
          <span data-testid="list-total">
            {fmtMatchCount(q.data.total, q.data.totalCapped, ['state change', 'state changes'])}
            {q.data.total > rows.length || q.data.totalCapped ? `, newest ${fmtInt(rows.length)} shown` : ''}
          </span>
        ) : (
          'every state change, newest first, with its notifications'
        )
      }
    >
      <div className="filters" role="group" aria-label="History filters">
        {rule && <RuleFilter id={rule} onClear={() => set({ rule: null })} />}
        <div className="field" role="group" aria-label="Changes (any of)">
          <span className="small muted">Changes</span>
          {HISTORY_KINDS.map((k) => (
            <label key={k} className="flag-toggle">
              <input
                type="checkbox"
                checked={kinds.includes(k)}
                onChange={() => set({ kind: toggled(kinds, k).join(',') || null })}
                data-testid={`history-kind-${k}`}
              />
              <span className={`chip ${kinds.includes(k) ? KIND_TONE[k] || 'neutral' : ''}`}>{k}</span>
            </label>
          ))}
        </div>
      </div>
      <ListStates
        query={q}
        loadingLabel="Loading history…"
        isEmpty={rows.length === 0}
        empty={
          kinds.length || rule ? (
            <Empty title={rule ? 'No state change of this rule' : 'No state change of these kinds'}>
              Clear the filter to see every change.
            </Empty>
          ) : (
            <Empty title="No alert has changed state yet" />
          )
        }
      >
        <DataTable
          testId="alert-history"
          head={
            <>
              <th>When</th>
              <th>Rule</th>
              <th>Change</th>
              <th>Value</th>
              <th>Notifications</th>
              <th />
            </>
          }
        >
          {rows.map((t) => (
            <tr key={t.id}>
              <td className="ts">
                <RelTime value={t.at} tz={global.tz} />
              </td>
              <td>
                {t.ruleName}
                <div className="small muted">
                  {condition(t)}
                  {t.alertServer ? ` · ${t.alertServer}` : ''}
                </div>
              </td>
              <td>
                <span className={`chip ${KIND_TONE[t.kind]}`}>{t.kind}</span>
              </td>
              <td className="num">{fmtValue(t.value)}</td>
              <td>
                {t.deliveries.length ? t.deliveries.map((d) => <DeliveryChip key={d.id} d={d} />) : <span className="faint small">—</span>}
              </td>
              <td className="right">
                <RowLink className="btn btn-xs btn-ghost" href={link(t.sessionsPath)}>
                  Sessions
                </RowLink>
              </td>
            </tr>
          ))}
        </DataTable>
      </ListStates>
    </Panel>
  );
}
