'use client';
import { RelTime } from '@/components/rel-time';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { ConfirmButton, Panel } from '@/components/panel';
import { TableScroll } from '@/components/table-scroll';
import { SignedInOperator } from '@/components/signed-in-operator';
import { Empty, ErrorState, Loading } from '@/components/states';
import { ZRegisteredServersResponse } from '@/lib/contract/api/admin-servers';
import { OPERATOR_ROLES, type TAuthSessionResponse, type TOperatorRole } from '@/lib/contract/api/operators';
import { UiApiError, apiFetch } from '@/lib/ui/fetcher';
import { fmtDateTime } from '@/lib/ui/format';
import { useOperators } from '@/lib/ui/queries';
import { queryKeys } from '@/lib/ui/query-defs';
import { useUrlState } from '@/lib/ui/url-state';
import { writes } from '@/lib/ui/writes';
import { SERVER_NAME_PATTERN } from '@/lib/contract/server-name';

/** Shown once: a freshly minted secret or token, with a copy button. */
export function OneTimeSecret({ label, value, onDone }: { label: string; value: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="secret-box" role="status" data-testid="one-time-secret">
      <div className="grow">
        <div className="small">
          <strong>{label}</strong> — shown only now; store it in the sender&apos;s configuration.
        </div>
        <code>{value}</code>
      </div>
      <button
        type="button"
        className="btn btn-xs"
        onClick={() => {
          void navigator.clipboard?.writeText(value).then(() => setCopied(true));
        }}
      >
        {copied ? 'Copied' : 'Copy'}
      </button>
      <button type="button" className="btn btn-ghost btn-xs" onClick={onDone} aria-label="Dismiss">
        ✕
      </button>
    </div>
  );
}

function errText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

type Shown = { label: string; value: string } | null;

/** The create form of an admin panel, with the one-time secret it minted and the last mutation error. */
function AdminForm({
  onSubmit,
  shown,
  onDismiss,
  error,
  children,
}: {
  onSubmit: () => void;
  shown: Shown;
  onDismiss: () => void;
  error: unknown;
  children: ReactNode;
}) {
  return (
    <div className="panel-body">
      <form
        className="form-row"
        onSubmit={(e) => {
          e.preventDefault();
          onSubmit();
        }}
      >
        {children}
      </form>
      {shown && <OneTimeSecret label={shown.label} value={shown.value} onDone={onDismiss} />}
      {error ? (
        <div className="form-error" role="alert" style={{ marginTop: 6 }}>
          {errText(error)}
        </div>
      ) : null}
    </div>
  );
}

function ServersAdmin() {
  const { global } = useUrlState();
  const qc = useQueryClient();
  const q = useQuery({
    queryKey: queryKeys.adminServers(),
    queryFn: ({ signal }) => apiFetch('/api/v1/admin/servers', ZRegisteredServersResponse, { signal }),
    retry: false,
  });
  const [name, setName] = useState('');
  const [shown, setShown] = useState<Shown>(null);
  const done = () => {
    void qc.invalidateQueries({ queryKey: queryKeys.adminServers() });
    void qc.invalidateQueries({ queryKey: queryKeys.servers() });
  };
  const add = useMutation({
    mutationFn: (n: string) => writes.addServer({ name: n }),
    onSuccess: (r) => {
      setShown({ label: `Webhook secret for ${r.name}`, value: r.secret });
      setName('');
      done();
    },
  });
  const rotate = useMutation({
    mutationFn: (n: string) => writes.rotateSecret(n),
    onSuccess: (r) => {
      setShown({
        label: `New secret for ${r.name}${r.previousValidUntil ? ` (old one valid until ${fmtDateTime(r.previousValidUntil, global.tz)})` : ''}`,
        value: r.secret,
      });
      done();
    },
  });
  const remove = useMutation({
    mutationFn: (n: string) => writes.removeServer(n),
    onSuccess: done,
  });
  const mutationError = add.error ?? rotate.error ?? remove.error;

  if (q.isError && q.error instanceof UiApiError && q.error.status === 404)
    return (
      <Empty title="Server administration is not available on this instance">
        Use <code>npm run server</code> or <code>DOORWATCH_SERVERS</code>.
      </Empty>
    );

  return (
    <>
      <AdminForm
        onSubmit={() => {
          if (name.trim()) add.mutate(name.trim());
        }}
        shown={shown}
        onDismiss={() => setShown(null)}
        error={mutationError}
      >
        <label>
          New server name
          <input
            className="input mono"
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder="mcp-eu-1"
            pattern={SERVER_NAME_PATTERN}
            title="1–64 characters of a-z, 0-9 and -"
            data-testid="new-server-name"
          />
        </label>
        <button type="submit" className="btn btn-primary" disabled={add.isPending}>
          Register server
        </button>
      </AdminForm>
      {q.isPending ? (
        <Loading />
      ) : q.isError ? (
        <ErrorState error={q.error} onRetry={() => void q.refetch()} />
      ) : (q.data?.servers ?? []).length === 0 ? (
        <Empty title="No servers registered" />
      ) : (
        <TableScroll>
          <table className="data" data-testid="admin-servers">
            <thead>
              <tr>
                <th>Server</th>
                <th>Registered</th>
                <th>Active secrets</th>
                <th>Ingest URL</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {q.data!.servers.map((s) => (
                <tr key={s.name}>
                  <td className="mono">{s.name}</td>
                  <td className="ts">
                    <RelTime value={s.createdAt} tz={global.tz} />
                  </td>
                  <td>
                    {(s.secrets ?? []).map((x) => (
                      <div key={x.id} className="small">
                        since <RelTime value={x.createdAt} tz={global.tz} />
                        {x.expiresAt ? (
                          <span className="chip warn" style={{ marginLeft: 6 }}>
                            expires {fmtDateTime(x.expiresAt, global.tz)}
                          </span>
                        ) : null}
                      </div>
                    ))}
                  </td>
                  <td className="mono small">/api/v1/ingest/{s.name}</td>
                  <td className="right">
                    <button
                      type="button"
                      className="btn btn-xs"
                      disabled={rotate.isPending}
                      onClick={() => rotate.mutate(s.name)}
                      title="Mint a new secret; the current ones stay valid for a grace period"
                    >
                      Rotate secret
                    </button>{' '}
                    <ConfirmButton
                      label="Remove"
                      question={`Remove ${s.name}? Its secrets stop working at once; stored sessions stay.`}
                      onConfirm={() => remove.mutate(s.name)}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </>
  );
}

function OperatorsAdmin() {
  const { global } = useUrlState();
  const qc = useQueryClient();
  const q = useOperators(true);
  const [name, setName] = useState('');
  const [role, setRole] = useState<TOperatorRole>('viewer');
  const [shown, setShown] = useState<Shown>(null);
  const create = useMutation({
    mutationFn: () => writes.createOperator({ name: name.trim(), role }),
    onSuccess: (r) => {
      setShown({ label: `Token for ${r.operator.name} (${r.operator.role})`, value: r.token });
      setName('');
      void qc.invalidateQueries({ queryKey: queryKeys.operators() });
    },
  });
  const revoke = useMutation({
    mutationFn: (id: string) => writes.revokeOperator(id),
    onSuccess: () => void qc.invalidateQueries({ queryKey: queryKeys.operators() }),
  });
  return (
    <>
      <AdminForm
        onSubmit={() => {
          if (name.trim()) create.mutate();
        }}
        shown={shown}
        onDismiss={() => setShown(null)}
        error={create.error ?? revoke.error}
      >
        <label>
          Name
          <input
            className="input"
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder="on-call laptop"
            data-testid="new-operator-name"
          />
        </label>
        <label>
          Role
          <select className="select" value={role} onChange={(e) => setRole(e.target.value as TOperatorRole)}>
            {OPERATOR_ROLES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="btn btn-primary" disabled={create.isPending}>
          Create token
        </button>
      </AdminForm>
      {q.isPending ? (
        <Loading />
      ) : q.isError ? (
        <ErrorState error={q.error} onRetry={() => void q.refetch()} />
      ) : (
        <TableScroll>
          <table className="data" data-testid="operators-table">
            <thead>
              <tr>
                <th>Name</th>
                <th>Role</th>
                <th>Created</th>
                <th>Last used</th>
                <th>Status</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {q.data.operators.map((o) => (
                <tr key={o.id}>
                  <td>
                    {o.name}
                    {o.bootstrap && (
                      <span className="chip" style={{ marginLeft: 6 }}>
                        bootstrap
                      </span>
                    )}
                  </td>
                  <td>{o.role}</td>
                  <td className="ts">
                    <RelTime value={o.createdAt} tz={global.tz} />
                  </td>
                  <td className="ts">
                    <RelTime value={o.lastUsedAt} tz={global.tz} />
                  </td>
                  <td>
                    {o.revokedAt ? (
                      <span className="chip bad">
                        revoked <RelTime value={o.revokedAt} tz={global.tz} />
                      </span>
                    ) : (
                      <span className="chip good">active</span>
                    )}
                  </td>
                  <td className="right">
                    {!o.revokedAt && (
                      <ConfirmButton
                        label="Revoke"
                        question={`Revoke ${o.name}? Its token and browser sessions stop working at once.`}
                        onConfirm={() => revoke.mutate(o.id)}
                      />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </>
  );
}

export function SettingsView() {
  return <SignedInOperator>{(operator) => <Settings operator={operator} />}</SignedInOperator>;
}

function Settings({ operator }: { operator: TAuthSessionResponse['operator'] }) {
  const admin = operator.role === 'admin';
  return (
    <div className="stack" data-testid="settings">
      <div className="page-head">
        <h1>Settings</h1>
        <span className="sub small">
          signed in as {operator.name} ({operator.role})
        </span>
      </div>
      {!admin ? (
        <div className="panel">
          <Empty title="Administrators only">Servers, webhook secrets and operator tokens are managed by admins. Ask one for access.</Empty>
        </div>
      ) : (
        <>
          <Panel
            id="h-srv"
            title="Servers and webhook secrets"
            aside="Standard Webhooks signing; rotation keeps the old secret valid for a grace period"
          >
            <ServersAdmin />
          </Panel>
          <Panel id="h-ops" title="Operator tokens" aside="viewer: read-only · admin: also settings">
            <OperatorsAdmin />
          </Panel>
        </>
      )}
    </div>
  );
}
