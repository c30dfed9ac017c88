'use client';
// Where notifications go: webhook contact points (admins add and remove them; the signing secret is shown once).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmButton, DataTable, Panel } from '@/components/panel';
import { RelTime } from '@/components/rel-time';
import { OneTimeSecret } from '@/components/settings/settings-view';
import { Empty, ListStates } from '@/components/states';
import { CONTACT_POINT_FORMATS } from '@/lib/contract/api/alerts';
import { useContactPoints } from '@/lib/ui/queries';
import { queryKeys } from '@/lib/ui/query-defs';
import { useUrlState } from '@/lib/ui/url-state';
import { writes } from '@/lib/ui/writes';

export function ContactPointsPanel({ admin }: { admin: boolean }) {
  const { global } = useUrlState();
  const qc = useQueryClient();
  const q = useContactPoints();
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [format, setFormat] = useState<(typeof CONTACT_POINT_FORMATS)[number]>('standard');
  const [shown, setShown] = useState<{ label: string; value: string } | null>(null);
  const done = () => void qc.invalidateQueries({ queryKey: queryKeys.contactPoints() });
  const create = useMutation({
    mutationFn: () => writes.createContactPoint({ name: name.trim(), url: url.trim(), format }),
    onSuccess: (r) => {
      setShown({ label: `Signing secret for ${r.contactPoint.name} (verify webhook-signature with it)`, value: r.secret });
      setName('');
      setUrl('');
      done();
    },
  });
  const remove = useMutation({
    mutationFn: (id: string) => writes.deleteContactPoint(id),
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
