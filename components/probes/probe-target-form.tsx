'use client';
// Adding or editing a server's door-probe target (admins). The credential value is write-only: it
// is never read back, so editing keeps the stored one unless the admin replaces or removes it.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type InputHTMLAttributes } from 'react';
import {
  PROBE_STEP_TIMEOUT_DEFAULT_SECONDS,
  PROBE_STEP_TIMEOUT_MAX_SECONDS,
  PROBE_STEP_TIMEOUT_MIN_SECONDS,
  type TProbeTargetRequest,
  type TProbeTargetView,
} from '@/lib/contract/api/probes';
import { UiApiError } from '@/lib/ui/fetcher';
import { useProbeHistory } from '@/lib/ui/queries';
import { queryKeys } from '@/lib/ui/query-defs';
import { useUrlState } from '@/lib/ui/url-state';
import { writes } from '@/lib/ui/writes';

/** An API error in the API's own words, with its code to look up (e.g. probe_target_forbidden). */
export function ApiErrorLine({ error, what }: { error: unknown; what: string }) {
  const code = error instanceof UiApiError ? error.code : null;
  const message = error instanceof Error ? error.message : String(error);
  return (
    <div className="form-error" role="alert" data-testid="probe-form-error">
      {what}: {message}
      {code && (
        <>
          {' '}
          (<code>{code}</code>)
        </>
      )}
    </div>
  );
}

type CredentialMode = 'keep' | 'replace' | 'remove';

/** What the credential part of the body is: omitted keeps the stored one, null removes it. */
function credentialBody(mode: CredentialMode, header: string, value: string): TProbeTargetRequest['credential'] {
  if (mode === 'keep') return undefined;
  if (mode === 'remove') return null;
  if (!header.trim() && !value) return null;
  if (!header.trim() || !value) throw new Error('give both the header name and its value, or neither');
  return { header: header.trim(), value };
}

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'className'>;

/** One labelled input of the form; `className` is the label's (its width), `mono` sets the input in monospace. */
function Field({
  label,
  value,
  onChange,
  testId,
  className,
  mono = false,
  ...input
}: { label: string; value: string; onChange: (v: string) => void; testId: string; className?: string; mono?: boolean } & InputProps) {
  return (
    <label className={className}>
      {label}
      <input
        {...input}
        className={mono ? 'input mono' : 'input'}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        data-testid={testId}
      />
    </label>
  );
}

interface CredentialState {
  mode: CredentialMode;
  setMode: (m: CredentialMode) => void;
  header: string;
  setHeader: (h: string) => void;
  value: string;
  setValue: (v: string) => void;
}

/** The credential part: a stored one is only named ("set"), and replaced or removed on request. */
function CredentialFields({
  id,
  stored,
  header: storedHeader,
  cred: { mode, setMode, header, setHeader, value, setValue },
}: {
  id: string;
  stored: boolean;
  header: string | null;
  cred: CredentialState;
}) {
  return (
    <fieldset className="probe-form-credential" aria-describedby={`${id}-cred-hint`}>
      <legend>Credential header (optional)</legend>
      {stored && mode !== 'replace' ? (
        <p className="small" data-testid="probe-form-credential-stored">
          {mode === 'keep' ? (
            <>
              <code>{storedHeader}</code>: set (stored, never shown).{' '}
            </>
          ) : (
            <>The stored credential will be removed. </>
          )}
          <button type="button" className="btn btn-xs" onClick={() => setMode('replace')} data-testid="probe-form-replace-credential">
            Replace credential
          </button>{' '}
          {mode === 'keep' ? (
            <button type="button" className="btn btn-xs" onClick={() => setMode('remove')} data-testid="probe-form-remove-credential">
              Remove credential
            </button>
          ) : (
            <button type="button" className="btn btn-xs" onClick={() => setMode('keep')}>
              Keep it
            </button>
          )}
        </p>
      ) : (
        <div className="form-row">
          <Field
            label="Header"
            value={header}
            onChange={setHeader}
            testId="probe-form-header"
            mono
            placeholder="Authorization"
            autoComplete="off"
          />
          <Field
            label="Value"
            value={value}
            onChange={setValue}
            testId="probe-form-value"
            mono
            type="password"
            placeholder={stored ? 'new value' : 'Bearer …'}
            autoComplete="new-password"
          />
          {stored && (
            <button type="button" className="btn btn-xs" onClick={() => setMode('keep')}>
              Keep the stored one
            </button>
          )}
        </div>
      )}
      <p className="hint" id={`${id}-cred-hint`}>
        Sent on every probe request. The value is write-only: sealed at rest and never shown again.
      </p>
    </fieldset>
  );
}

export function ProbeTargetForm({
  server: fixedServer,
  servers,
  target,
  onDone,
}: {
  /** Editing this server's target; when absent, `servers` are offered to choose from. */
  server?: string;
  servers?: string[];
  target: TProbeTargetView | null;
  onDone: () => void;
}) {
  const qc = useQueryClient();
  const [server, setServer] = useState(fixedServer ?? servers?.[0] ?? '');
  const [url, setUrl] = useState(target?.url ?? '');
  const [interval, setIntervalText] = useState(String(target?.intervalSeconds ?? 300));
  const [deadline, setDeadline] = useState(String(target?.stepTimeoutSeconds ?? PROBE_STEP_TIMEOUT_DEFAULT_SECONDS));
  const [enabled, setEnabled] = useState(target?.enabled ?? true);
  const stored = target?.credentialSet ?? false;
  const [mode, setMode] = useState<CredentialMode>(stored ? 'keep' : 'replace');
  const [header, setHeader] = useState(target?.credentialHeader ?? '');
  const [value, setValue] = useState('');
  const cred = { mode, setMode, header, setHeader, value, setValue };
  const save = useMutation({
    mutationFn: () =>
      writes.setProbeTarget(server, {
        url: url.trim(),
        intervalSeconds: Number(interval),
        stepTimeoutSeconds: Number(deadline),
        enabled,
        credential: credentialBody(mode, header, value),
      }),
    onSuccess: () => {
      setValue('');
      void qc.invalidateQueries({ queryKey: queryKeys.probes(server) });
      void qc.invalidateQueries({ queryKey: queryKeys.servers() });
      onDone();
    },
  });
  const id = `probe-form-${fixedServer ?? 'new'}`;
  // Adding: a server that already has a target is edited in its own panel, not overwritten here.
  const { global } = useUrlState();
  const existing = useProbeHistory(server, global.refresh).data?.target ?? null;
  const taken = !fixedServer && existing !== null;
  return (
    <form
      className="probe-form"
      data-testid={fixedServer ? 'probe-edit-form' : 'probe-add-form'}
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <div className="form-row">
        {!fixedServer && (
          <label>
            Server
            <select className="select" value={server} onChange={(e) => setServer(e.target.value)} data-testid="probe-form-server">
              {(servers ?? []).map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </label>
        )}
        <Field
          label="MCP endpoint URL"
          className="probe-form-url"
          value={url}
          onChange={setUrl}
          testId="probe-form-url"
          mono
          inputMode="url"
          required
          placeholder="https://mcp.example.com/mcp"
        />
        <Field
          label="Every (seconds)"
          value={interval}
          onChange={setIntervalText}
          testId="probe-form-interval"
          type="number"
          min={1}
          required
          style={{ width: 100 }}
        />
        <Field
          label="Step deadline (seconds)"
          value={deadline}
          onChange={setDeadline}
          testId="probe-form-step-timeout"
          type="number"
          min={PROBE_STEP_TIMEOUT_MIN_SECONDS}
          max={PROBE_STEP_TIMEOUT_MAX_SECONDS}
          required
          title="How long each step may wait, the server's upgrade offer included; raise it for servers that offer the upgrade late"
          style={{ width: 100 }}
        />
        <label className="probe-form-check">
          <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} data-testid="probe-form-enabled" />
          Run on schedule
        </label>
      </div>
      <CredentialFields id={id} stored={stored} header={target?.credentialHeader ?? null} cred={cred} />
      <div className="form-row">
        <button type="submit" className="btn btn-primary" disabled={save.isPending || !server || taken} data-testid="probe-form-save">
          {save.isPending ? 'Saving…' : fixedServer ? 'Save target' : 'Add target'}
        </button>
        <button type="button" className="btn" onClick={onDone}>
          Cancel
        </button>
      </div>
      {taken && (
        <p className="small muted" role="status">
          {server} already has a probe target: edit it in its panel below.
        </p>
      )}
      {save.isError && <ApiErrorLine error={save.error} what="Not saved" />}
    </form>
  );
}
