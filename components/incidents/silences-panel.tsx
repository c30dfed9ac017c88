'use client';
// The silences on the Incidents page: active and expired (toggle), each with what it matches (rule
// and/or server), its reason, who created it, when it ends or ended, and how many notifications it
// held back; admins can end an active one now. API strings are React text (escaped).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { DataTable, Panel } from '@/components/panel';
import { RelTime } from '@/components/rel-time';
import { Empty, ListStates } from '@/components/states';
import type { TSilence } from '@/lib/contract/api/incidents';
import { fmtDateTime, fmtInt, type TimeZoneMode } from '@/lib/ui/format';
import { useAlertRules, useMe, useSilences } from '@/lib/ui/queries';
import { queryKeys } from '@/lib/ui/query-defs';
import { writes } from '@/lib/ui/writes';

type Shown = 'active' | 'expired';

function Matcher({ silence, ruleName }: { silence: TSilence; ruleName: string | null }) {
  const parts: string[] = [];
  if (silence.ruleId) parts.push(`rule ${ruleName ?? silence.ruleId}`);
  if (silence.server) parts.push(`server ${silence.server}`);
  return <span data-testid="silence-matcher">{parts.join(' and ')}</span>;
}

function Row({ silence, tz, admin, ruleName }: { silence: TSilence; tz: TimeZoneMode; admin: boolean; ruleName: string | null }) {
  const qc = useQueryClient();
  const expire = useMutation({
    mutationFn: () => writes.expireSilence(silence.id),
    onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.silences() }),
  });
  const active = silence.state === 'active';
  return (
    <tr data-testid="silence-row" data-state={silence.state} data-id={silence.id}>
      <td>
        <Matcher silence={silence} ruleName={ruleName} />
      </td>
      <td data-testid="silence-reason">{silence.reason}</td>
      <td className="small">{silence.createdBy}</td>
      <td className="ts">
        {active ? (
          // A future time: the date, not "ago".
          <>ends {fmtDateTime(silence.endsAt, tz)}</>
        ) : (
          <>
            ended{silence.expiredBy ? ` by ${silence.expiredBy}` : ''} <RelTime value={silence.expiredAt ?? silence.endsAt} tz={tz} />
          </>
        )}
      </td>
      <td className="num">{fmtInt(silence.suppressed)}</td>
      {admin && (
        <td>
          {active && (
            <button
              type="button"
              className="btn btn-xs"
              data-testid="silence-expire"
              disabled={expire.isPending}
              onClick={() => expire.mutate()}
            >
              Expire now
            </button>
          )}
          {expire.error && <span className="bad-text small"> {expire.error.message}</span>}
        </td>
      )}
    </tr>
  );
}

export function SilencesPanel({ tz }: { tz: TimeZoneMode }) {
  const [shown, setShown] = useState<Shown>('active');
  const q = useSilences({ state: shown });
  const me = useMe();
  const rules = useAlertRules();
  const admin = me.data?.operator.role === 'admin';
  const ruleNames = new Map((rules.data?.rules ?? []).map((r) => [r.id, r.name]));
  const silences = q.data?.silences ?? [];
  return (
    <Panel id="silence-list" title="Silences" aside={q.data ? `${fmtInt(silences.length)} ${shown}` : null}>
      <div className="filters">
        <div className="field" role="group" aria-label="Silence state">
          {(['active', 'expired'] as const).map((s) => (
            <button
              key={s}
              type="button"
              className={`btn btn-xs ${shown === s ? 'btn-primary' : ''}`}
              aria-pressed={shown === s}
              data-testid={`silence-state-${s}`}
              onClick={() => setShown(s)}
            >
              {s}
            </button>
          ))}
        </div>
      </div>
      <ListStates
        query={q}
        loadingLabel="Loading silences…"
        isEmpty={silences.length === 0}
        empty={
          <Empty title={`No ${shown} silences`}>A silence holds back a rule&apos;s or a server&apos;s notifications for a while.</Empty>
        }
      >
        <DataTable
          testId="silences-table"
          head={['Matches', 'Reason', 'Created by', 'Ends', 'Suppressed', ...(admin ? [''] : [])].map((h, i) => (
            <th key={`${h}-${i}`}>{h}</th>
          ))}
        >
          {silences.map((s) => (
            <Row key={s.id} silence={s} tz={tz} admin={admin} ruleName={s.ruleId ? (ruleNames.get(s.ruleId) ?? null) : null} />
          ))}
        </DataTable>
      </ListStates>
    </Panel>
  );
}
