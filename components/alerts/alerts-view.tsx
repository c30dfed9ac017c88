'use client';
// The Alerts page: what fires now, the rules (admins create, edit, disable and delete them;
// viewers read), where notifications go, and the history with each notification's fate.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { RowLink } from '@/components/row-link';
import { useState } from 'react';
import { ConfirmButton, DataTable, Panel } from '@/components/panel';
import { Empty, ErrorState, ListStates, Loading } from '@/components/states';
import { OneTimeSecret } from '@/components/settings/settings-view';
import {
  ALERT_COMPARISONS,
  ALERT_MEASURES,
  COMPARISON_SYMBOLS,
  CONTACT_POINT_FORMATS,
  MEASURE_LABELS,
  ZAlertRuleResponse,
  ZAlertTransitionKind,
  ZContactPointCreated,
  type TAlertComparison,
  type TAlertMeasure,
  type TAlertRule,
  type TAlertTransition,
  type TAlertTransitionKind,
  type TDeliverySummary,
} from '@/lib/contract/api/alerts';
import { apiFetch } from '@/lib/ui/fetcher';
import { RelTime } from '@/components/rel-time';
import { fmtDateTime, fmtInt, fmtMatchCount } from '@/lib/ui/format';
import { toggled } from '@/components/list-page';
import { useAlertHistory, useAlertRules, useContactPoints, useMe } from '@/lib/ui/queries';
import { queryKeys } from '@/lib/ui/query-defs';
import { useUrlState } from '@/lib/ui/url-state';

const STATE_TONE = { firing: 'bad', pending: 'warn', inactive: 'good' } as const;
const KIND_TONE = { firing: 'bad', pending: 'warn', resolved: 'good', cleared: '' } as const;
const DELIVERY_TONE = { delivered: 'good', pending: 'warn', failed: 'bad', superseded: '', held: 'warn', summarized: '' } as const;

const condition = (r: Pick<TAlertRule, 'measure' | 'comparison' | 'threshold' | 'windowSeconds'>) =>
  `${MEASURE_LABELS[r.measure]} ${COMPARISON_SYMBOLS[r.comparison]} ${r.threshold} over ${fmtSeconds(r.windowSeconds)}`;

function fmtSeconds(s: number): string {
  if (s % 3600 === 0 && s > 0) return `${s / 3600} h`;
  if (s % 60 === 0 && s > 0) return `${s / 60} min`;
  return `${s} s`;
}

const fmtValue = (v: number | null) => (v === null ? 'no data' : String(Math.round(v * 1000) / 1000));

type Draft = {
  name: string;
  measure: TAlertMeasure;
  comparison: TAlertComparison;
  threshold: string;
  windowSeconds: string;
  forSeconds: string;
  server: string;
  enabled: boolean;
  contactPointIds: string[];
};

const EMPTY_DRAFT: Draft = {
  name: '',
  measure: 'naive_resumes',
  comparison: 'gt',
  threshold: '0',
  windowSeconds: '300',
  forSeconds: '0',
  server: '',
  enabled: true,
  contactPointIds: [],
};

const draftOf = (r: TAlertRule): Draft => ({
  name: r.name,
  measure: r.measure,
  comparison: r.comparison,
  threshold: String(r.threshold),
  windowSeconds: String(r.windowSeconds),
  forSeconds: String(r.forSeconds),
  server: r.server ?? '',
  enabled: r.enabled,
  contactPointIds: r.contactPointIds,
});

const bodyOf = (d: Draft) => ({
  name: d.name.trim(),
  measure: d.measure,
  comparison: d.comparison,
  threshold: Number(d.threshold),
  windowSeconds: Number(d.windowSeconds),
  forSeconds: Number(d.forSeconds),
  server: d.server.trim() || null,
  enabled: d.enabled,
  contactPointIds: d.contactPointIds,
});

function RuleForm({
  initial,
  submitLabel,
  onSubmit,
  onCancel,
  pending,
  error,
}: {
  initial: Draft;
  submitLabel: string;
  onSubmit: (d: Draft) => void;
  onCancel?: () => void;
  pending: boolean;
  error: unknown;
}) {
  const [d, setD] = useState(initial);
  const contactPoints = useContactPoints();
  const set = (patch: Partial<Draft>) => setD((x) => ({ ...x, ...patch }));
  return (
    <form
      className="form-row"
      data-testid="alert-rule-form"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit(d);
      }}
    >
      <label>
        Name
        <input
          className="input"
          value={d.name}
          onChange={(e) => set({ name: e.target.value })}
          required
          maxLength={120}
          data-testid="rule-name"
        />
      </label>
      <label>
        Measure
        <select
          className="select"
          value={d.measure}
          onChange={(e) => set({ measure: e.target.value as TAlertMeasure })}
          data-testid="rule-measure"
        >
          {ALERT_MEASURES.map((m) => (
            <option key={m} value={m}>
              {MEASURE_LABELS[m]}
            </option>
          ))}
        </select>
      </label>
      <label>
        Is
        <select className="select" value={d.comparison} onChange={(e) => set({ comparison: e.target.value as TAlertComparison })}>
          {ALERT_COMPARISONS.map((c) => (
            <option key={c} value={c}>
              {COMPARISON_SYMBOLS[c]}
            </option>
          ))}
        </select>
      </label>
      <label>
        Threshold
        <input
          className="input num"
          type="number"
          step="any"
          value={d.threshold}
          onChange={(e) => set({ threshold: e.target.value })}
          required
          style={{ width: 90 }}
          data-testid="rule-threshold"
        />
      </label>
      <label>
        Window (s)
        <input
          className="input num"
          type="number"
          min={60}
          value={d.windowSeconds}
          onChange={(e) => set({ windowSeconds: e.target.value })}
          required
          style={{ width: 90 }}
        />
      </label>
      <label>
        For (s)
        <input
          className="input num"
          type="number"
          min={0}
          value={d.forSeconds}
          onChange={(e) => set({ forSeconds: e.target.value })}
          required
          style={{ width: 80 }}
        />
      </label>
      <label>
        Server
        <input
          className="input mono"
          value={d.server}
          onChange={(e) => set({ server: e.target.value })}
          placeholder="all"
          pattern="[a-z0-9-]{1,64}"
          style={{ width: 120 }}
        />
      </label>
      {(contactPoints.data?.contactPoints ?? []).map((c) => (
        <label key={c.id} className="row gap small">
          <input
            type="checkbox"
            checked={d.contactPointIds.includes(c.id)}
            onChange={(e) =>
              set({ contactPointIds: e.target.checked ? [...d.contactPointIds, c.id] : d.contactPointIds.filter((x) => x !== c.id) })
            }
          />
          notify {c.name}
        </label>
      ))}
      <label className="row gap small">
        <input type="checkbox" checked={d.enabled} onChange={(e) => set({ enabled: e.target.checked })} />
        enabled
      </label>
      <button type="submit" className="btn btn-primary" disabled={pending}>
        {submitLabel}
      </button>
      {onCancel && (
        <button type="button" className="btn btn-ghost" onClick={onCancel}>
          Cancel
        </button>
      )}
      {error ? (
        <div className="form-error" role="alert">
          {error instanceof Error ? error.message : String(error)}
        </div>
      ) : null}
    </form>
  );
}

function useRuleMutations() {
  const qc = useQueryClient();
  const done = () => void qc.invalidateQueries({ queryKey: queryKeys.alertRules() });
  const create = useMutation({
    mutationFn: (d: Draft) => apiFetch('/api/v1/alerts/rules', ZAlertRuleResponse, { method: 'POST', body: bodyOf(d) }),
    onSuccess: done,
  });
  const update = useMutation({
    mutationFn: ({ id, body }: { id: string; body: Record<string, unknown> }) =>
      apiFetch(`/api/v1/alerts/rules/${encodeURIComponent(id)}`, ZAlertRuleResponse, { method: 'PATCH', body }),
    onSuccess: done,
  });
  const remove = useMutation({
    mutationFn: (id: string) => apiFetch(`/api/v1/alerts/rules/${encodeURIComponent(id)}`, undefined, { method: 'DELETE' }),
    onSuccess: done,
  });
  return { create, update, remove };
}

function RulesPanel({ admin }: { admin: boolean }) {
  const { global, link } = useUrlState();
  const q = useAlertRules();
  const { create, update, remove } = useRuleMutations();
  const [editing, setEditing] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const rules = q.data?.rules ?? [];
  return (
    <Panel
      id="h-rules"
      title="Rules"
      aside={admin ? 'evaluated by one instance on a schedule; firing and resolved are notified' : 'read-only: admins edit rules'}
    >
      {admin && (
        <div className="panel-body">
          {adding ? (
            <RuleForm
              initial={EMPTY_DRAFT}
              submitLabel="Create rule"
              pending={create.isPending}
              error={create.error}
              onCancel={() => setAdding(false)}
              onSubmit={(d) => create.mutate(d, { onSuccess: () => setAdding(false) })}
            />
          ) : (
            <button type="button" className="btn" onClick={() => setAdding(true)} data-testid="add-rule">
              New rule
            </button>
          )}
        </div>
      )}
      <ListStates query={q} loadingLabel="Loading rules…" isEmpty={rules.length === 0} empty={<Empty title="No alert rules" />}>
        <DataTable
          testId="alert-rules"
          head={
            <>
              <th>Rule</th>
              <th>Condition</th>
              <th>For</th>
              <th>Server</th>
              <th>State</th>
              <th>Notifies</th>
              <th />
            </>
          }
        >
          {rules.map((r) =>
            editing === r.id ? (
              <tr key={r.id}>
                <td colSpan={7}>
                  <RuleForm
                    initial={draftOf(r)}
                    submitLabel="Save"
                    pending={update.isPending}
                    error={update.error}
                    onCancel={() => setEditing(null)}
                    onSubmit={(d) => update.mutate({ id: r.id, body: bodyOf(d) }, { onSuccess: () => setEditing(null) })}
                  />
                </td>
              </tr>
            ) : (
              <tr key={r.id} data-testid={`alert-rule-${r.id}`}>
                <td>
                  {r.name}
                  {!r.enabled && (
                    <span className="chip" style={{ marginLeft: 6 }}>
                      disabled
                    </span>
                  )}
                </td>
                <td className="small">{condition(r)}</td>
                <td className="num">{fmtSeconds(r.forSeconds)}</td>
                <td className="mono small">{r.server ?? 'each server'}</td>
                <td>
                  {r.status ? (
                    <span
                      className={`chip ${STATE_TONE[r.status.state]}`}
                      title={`value ${fmtValue(r.status.value)}, evaluated ${fmtDateTime(r.status.evaluatedAt, global.tz)}`}
                    >
                      {r.status.state}
                      {r.firingServers.length > 0 && !r.server ? ` on ${r.firingServers.join(', ')}` : ''} since{' '}
                      <RelTime value={r.status.since} tz={global.tz} />
                    </span>
                  ) : (
                    <span className="chip">not evaluated yet</span>
                  )}
                </td>
                <td className="small">{r.contactPointIds.length}</td>
                <td className="right">
                  <RowLink
                    className="btn btn-xs btn-ghost"
                    href={link(r.sessionsPath.split('?')[0], Object.fromEntries(new URLSearchParams(r.sessionsPath.split('?')[1])))}
                  >
                    Sessions
                  </RowLink>{' '}
                  {admin && (
                    <>
                      <button
                        type="button"
                        className="btn btn-xs"
                        disabled={update.isPending}
                        onClick={() => update.mutate({ id: r.id, body: { enabled: !r.enabled } })}
                      >
                        {r.enabled ? 'Disable' : 'Enable'}
                      </button>{' '}
                      <button type="button" className="btn btn-xs" onClick={() => setEditing(r.id)}>
                        Edit
                      </button>{' '}
                      <ConfirmButton
                        label="Delete"
                        question={`Delete the rule "${r.name}"? Its history stays.`}
                        onConfirm={() => remove.mutate(r.id)}
                      />
                    </>
                  )}
                </td>
              </tr>
            ),
          )}
        </DataTable>
      </ListStates>
      {(update.error || remove.error) && !editing ? (
        <div className="form-error" role="alert">
          {String((update.error ?? remove.error) as Error)}
        </div>
      ) : null}
    </Panel>
  );
}

function ContactPointsPanel({ admin }: { admin: boolean }) {
  const { global } = useUrlState();
  const qc = useQueryClient();
  const q = useContactPoints();
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [format, setFormat] = useState<(typeof CONTACT_POINT_FORMATS)[number]>('standard');
  const [shown, setShown] = useState<{ label: string; value: string } | null>(null);
  const done = () => void qc.invalidateQueries({ queryKey: queryKeys.contactPoints() });
  const create = useMutation({
    mutationFn: () =>
      apiFetch('/api/v1/alerts/contact-points', ZContactPointCreated, {
        method: 'POST',
        body: { name: name.trim(), url: url.trim(), format },
      }),
    onSuccess: (r) => {
      setShown({ label: `Signing secret for ${r.contactPoint.name} (verify webhook-signature with it)`, value: r.secret });
      setName('');
      setUrl('');
      done();
    },
  });
  const remove = useMutation({
    mutationFn: (id: string) => apiFetch(`/api/v1/alerts/contact-points/${encodeURIComponent(id)}`, undefined, { method: 'DELETE' }),
    onSuccess: done,
  });
  const points = q.data?.contactPoints ?? [];
  return (
    <Panel id="h-contacts" title="Contact points" aside='webhooks signed with Standard Webhooks; Slack format posts {"text"}'>
      {admin && (
        <div className="panel-body">
          <form
            className="form-row"
            onSubmit={(e) => {
              e.preventDefault();
              create.mutate();
            }}
          >
            <label>
              Name
              <input
                className="input"
                value={name}
                onChange={(e) => setName(e.target.value)}
                required
                placeholder="on-call pager"
                data-testid="contact-name"
              />
            </label>
            <label>
              Webhook URL
              <input
                className="input mono"
                type="url"
                value={url}
                onChange={(e) => setUrl(e.target.value)}
                required
                placeholder="https://hooks.example.com/…"
                style={{ width: 280 }}
                data-testid="contact-url"
              />
            </label>
            <label>
              Body
              <select className="select" value={format} onChange={(e) => setFormat(e.target.value as typeof format)}>
                {CONTACT_POINT_FORMATS.map((f) => (
                  <option key={f} value={f}>
                    {f === 'slack' ? 'Slack-compatible' : 'JSON'}
                  </option>
                ))}
              </select>
            </label>
            <button type="submit" className="btn btn-primary" disabled={create.isPending}>
              Add contact point
            </button>
          </form>
          {shown && <OneTimeSecret label={shown.label} value={shown.value} onDone={() => setShown(null)} />}
          {create.error || remove.error ? (
            <div className="form-error" role="alert">
              {String((create.error ?? remove.error) as Error)}
            </div>
          ) : null}
        </div>
      )}
      <ListStates
        query={q}
        loadingLabel="Loading contact points…"
        isEmpty={points.length === 0}
        empty={<Empty title="No contact points">Alerts show here and in the banner; add a webhook to be notified.</Empty>}
      >
        <DataTable
          testId="contact-points"
          head={
            <>
              <th>Name</th>
              <th>URL</th>
              <th>Body</th>
              <th>Added</th>
              <th />
            </>
          }
        >
          {points.map((c) => (
            <tr key={c.id}>
              <td>{c.name}</td>
              <td className="mono small">{c.url}</td>
              <td>{c.format}</td>
              <td className="ts">
                <RelTime value={c.createdAt} tz={global.tz} />
              </td>
              <td className="right">
                {admin && (
                  <ConfirmButton
                    label="Remove"
                    question={`Remove ${c.name}? Rules stop notifying it.`}
                    onConfirm={() => remove.mutate(c.id)}
                  />
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      </ListStates>
    </Panel>
  );
}

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

function HistoryPanel() {
  const { global, link, get, set } = useUrlState();
  // Kinds in the URL (?kind=firing,resolved), so a link to "what fired" keeps its filter.
  const kinds = (get('kind') ?? '').split(',').filter((k): k is TAlertTransitionKind => (HISTORY_KINDS as readonly string[]).includes(k));
  const q = useAlertHistory(global.refresh, kinds);
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
          kinds.length ? (
            <Empty title="No state change of these kinds">Clear the filter to see every change.</Empty>
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
                <RowLink
                  className="btn btn-xs btn-ghost"
                  href={link(t.sessionsPath.split('?')[0], Object.fromEntries(new URLSearchParams(t.sessionsPath.split('?')[1])))}
                >
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

function FiringPanel() {
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
