'use client';
// The rules: everyone reads them with their state; admins create, edit, disable and delete them.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { z } from 'zod';
import { ConfirmButton, DataTable, Panel } from '@/components/panel';
import { RelTime } from '@/components/rel-time';
import { RowLink } from '@/components/row-link';
import { Empty, ListStates } from '@/components/states';
import type { ZAlertRulePatch } from '@/lib/contract/api/alerts';
import { fmtDateTime } from '@/lib/ui/format';
import { useAlertRules } from '@/lib/ui/queries';
import { queryKeys } from '@/lib/ui/query-defs';
import { useUrlState } from '@/lib/ui/url-state';
import { writes } from '@/lib/ui/writes';
import { STATE_TONE, condition, fmtSeconds, fmtValue } from './alert-text';
import { EMPTY_DRAFT, RuleForm, bodyOf, draftOf, type Draft } from './rule-form';

function useRuleMutations() {
  const qc = useQueryClient();
  const done = () => void qc.invalidateQueries({ queryKey: queryKeys.alertRules() });
  const create = useMutation({
    mutationFn: (d: Draft) => writes.createAlertRule(bodyOf(d)),
    onSuccess: done,
  });
  const update = useMutation({
    mutationFn: ({ id, body }: { id: string; body: z.input<typeof ZAlertRulePatch> }) => writes.updateAlertRule(id, body),
    onSuccess: done,
  });
  const remove = useMutation({
    mutationFn: (id: string) => writes.deleteAlertRule(id),
    onSuccess: done,
  });
  return { create, update, remove };
}

export function RulesPanel({ admin }: { admin: boolean }) {
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
                      {/* One inline box: a chip is a flex box, which would drop the space before the time. */}
                      <span>
                        {r.status.state}
                        {r.firingServers.length > 0 && !r.server ? ` on ${r.firingServers.join(', ')}` : ''} since{' '}
                        <RelTime value={r.status.since} tz={global.tz} />
                      </span>
                    </span>
                  ) : (
                    <span className="chip">not evaluated yet</span>
                  )}
                </td>
                <td className="small">{r.contactPointIds.length}</td>
                <td className="right">
                  <RowLink className="btn btn-xs btn-ghost" href={link(r.sessionsPath)}>
                    Sessions
                  </RowLink>{' '}
                  <RowLink
                    className="btn btn-xs btn-ghost"
                    href={`${link('/alerts', { rule: r.id })}#h-history`}
                    data-testid={`rule-history-${r.id}`}
                  >
                    History
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
