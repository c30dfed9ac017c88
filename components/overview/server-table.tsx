'use client';
import { RelTime } from '@/components/rel-time';
import { RowLink } from '@/components/row-link';
import type { UseQueryResult } from '@tanstack/react-query';
import { DataTable } from '@/components/panel';
import { Empty, ErrorState, Loading } from '@/components/states';
import type { TServerListResponse, TServerVerdict, TServerView } from '@/lib/contract/api/servers';
import { Term, Tip } from '@/components/term';
import { FLAG_HINTS, FLAG_LABELS, fmtInt } from '@/lib/ui/format';
import { useId } from 'react';
import { useUrlState } from '@/lib/ui/url-state';

const VERDICT: Record<TServerVerdict, { label: string; tone: string; title: string }> = {
  refuses: { label: 'refuses ✓', tone: 'good', title: 'Every answered boundary resume was refused with session-superseded' },
  naive: {
    label: 'resumes naively ✗',
    tone: 'bad',
    title:
      'After offering the WebSocket upgrade it accepted a resume instead of refusing it (or negotiated twice, or took a refused token back): clients can get stuck',
  },
  unknown: { label: 'unknown', tone: '', title: 'No answered boundary resume and no checked SSE resume yet' },
  resumes_correctly: {
    label: 'resumes correctly ✓',
    tone: 'good',
    title: 'No upgrade boundary seen; every checked SSE resume replayed all the events its store held',
  },
  lossy_resumes: { label: 'lossy resumes ✗', tone: 'bad', title: 'A resume replayed fewer events than its store held after the cursor' },
  idle_resumes: {
    label: 'idle resumes ✗',
    tone: 'bad',
    title: 'A resume answered 200 with an idle stream while its store held events for it',
  },
};

export function VerdictChip({ verdict }: { verdict: TServerVerdict }) {
  const v = VERDICT[verdict];
  return (
    <Term hint={v.title} className={`chip verdict ${v.tone}`} testId={`verdict-${verdict}`}>
      {v.label}
    </Term>
  );
}

/** Shown beside the verdict when the server's reporters lost events: the verdict may rest on partial timelines. */
function ReporterLossChip({ loss }: { loss: TServerView['reporterLoss'] }) {
  if (!loss || loss.dropped + loss.failed === 0) return null;
  const lost = loss.dropped + loss.failed;
  const title =
    `Its reporters lost ${fmtInt(lost)} event(s) before sending (${fmtInt(loss.dropped)} dropped from a full buffer, ` +
    `${fmtInt(loss.failed)} given up after retries) across ${fmtInt(loss.instances)} instance(s); ` +
    'timelines, counts and the verdict may be incomplete.';
  return (
    <span className="chip warn" title={title} data-testid="reporter-loss">
      ⚠ {fmtInt(lost)} lost
    </span>
  );
}

/** What the server's ordinary SSE resumes showed (non-zero parts only, each linking to its sessions). */
function ResumptionCell({ r, flagLink }: { r: TServerView['resumption']; flagLink: (flag?: string) => string }) {
  const parts: [number, string, string | undefined, boolean][] = [
    [r.checkedResumes, 'checked', undefined, false],
    [r.lossyResumes, 'lossy', 'lossy_resume', true],
    [r.idleResumes, 'idle', 'idle_resume', true],
    [r.conflictSessions, FLAG_LABELS.resume_conflict, 'resume_conflict', false],
    [r.endedSessionResumes, FLAG_LABELS.resume_after_end, 'resume_after_end', false],
    [r.unknownCursorSessions, FLAG_LABELS.unknown_cursor, 'unknown_cursor', false],
    [r.abandonedSessions, 'abandoned', 'abandoned', false],
  ];
  const shown = parts.filter(([n]) => n > 0);
  if (shown.length === 0) return <span className="muted">—</span>;
  return (
    <span className="small" data-testid="server-resumption">
      {shown.map(([n, label, flag, bad], i) => (
        <span key={label}>
          {i > 0 && ' · '}
          <ResumptionPart n={n} label={label} flag={flag} bad={bad} href={flagLink(flag)} />
        </span>
      ))}
    </span>
  );
}

/** One part of the SSE resumes cell: a link to its sessions, with the flag explained on hover and focus. */
function ResumptionPart({ n, label, flag, bad, href }: { n: number; label: string; flag?: string; bad: boolean; href: string }) {
  const id = useId();
  const hint = flag ? FLAG_HINTS[flag] : 'Resumes whose answer could be checked against the events the server held.';
  return (
    <span className="term">
      <RowLink href={href} className={bad ? 'bad-text' : ''} aria-describedby={id}>
        {fmtInt(n)} {label}
      </RowLink>
      <Tip id={id}>{hint}</Tip>
    </span>
  );
}

const AGO = (ms: number) =>
  ms < 90_000 ? `${Math.round(ms / 1000)} s` : ms < 5_400_000 ? `${Math.round(ms / 60_000)} min` : `${Math.round(ms / 3_600_000)} h`;

/** "signature mismatch 12 s ago: check the secret", "clock 6 min ahead": what an operator does about the latest refusal. */
export function describeRejection(last: NonNullable<TServerView['rejections']['last']>, nowMs: number): string {
  const ago = `${AGO(Math.max(0, nowMs - Date.parse(last.at)))} ago`;
  switch (last.reason) {
    case 'signature_mismatch':
      return `signature mismatch ${ago}: check the secret`;
    case 'timestamp_out_of_tolerance':
      return last.skewMs === null
        ? `timestamp out of tolerance ${ago}`
        : `clock ${AGO(Math.abs(last.skewMs))} ${last.skewMs > 0 ? 'ahead' : 'behind'} (${ago})`;
    case 'missing_headers':
      return `unsigned request ${ago}: send the webhook-* headers`;
    case 'unknown_server':
      return `no active secret ${ago}: rotate or re-add it`;
    case 'payload_too_large':
      return `body over 1 MiB ${ago}: send smaller batches`;
    case 'unsupported_media_type':
      return `not application/json ${ago}`;
    case 'rate_limited':
      return `over the ingest rate ${ago}`;
    case 'database_unavailable':
      return `database unavailable ${ago} (retried)`;
    case 'ingest_unavailable':
      return `ingest thread restarted ${ago} (retried)`;
  }
}

/** `nowMs`: when the list was fetched (render stays pure; the next refetch moves it). */
function RejectionsCell({ r, nowMs }: { r: TServerView['rejections']; nowMs: number }) {
  if (r.count === 0 || !r.last) return <span className="muted">0</span>;
  const reasons = Object.entries(r.byReason)
    .map(([k, n]) => `${k.replace(/_/g, ' ')}: ${n}`)
    .join(', ');
  return (
    <span className="warn-text" title={reasons} data-testid="server-rejections">
      <strong className="num">{fmtInt(r.count)}</strong> · {describeRejection(r.last, nowMs)}
    </span>
  );
}

export function ServerTable({ query, compact = false }: { query: UseQueryResult<TServerListResponse>; compact?: boolean }) {
  const { link, global } = useUrlState();
  if (query.isPending) return <Loading />;
  if (query.isError && !query.data) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  const servers = query.data?.servers ?? [];
  if (servers.length === 0)
    return (
      <Empty title="No servers yet">
        Register one in Settings (admin) or with <code>DOORWATCH_SERVERS</code>, then point its reporter at{' '}
        <code>/api/v1/ingest/&lt;name&gt;</code>.
      </Empty>
    );
  const sorted = [...servers].sort((a, b) => {
    const rank = (v: TServerVerdict) => (VERDICT[v].tone === 'bad' ? 0 : v === 'unknown' ? 1 : 2);
    return rank(a.verdict) - rank(b.verdict) || a.name.localeCompare(b.name);
  });
  const sl = (server: string, flag?: string) => link('/sessions', { server, flag });
  return (
    <DataTable
      testId="server-table"
      className={compact ? undefined : 'server-table-full'}
      head={
        <>
          <th>Server</th>
          <th>Verdict</th>
          <th>Last seen</th>
          <th className="num">Sessions</th>
          {!compact && <th className="num">Events</th>}
          <th className="num">Boundary</th>
          <th className="num">Refused</th>
          <th className="num">Naive</th>
          <th className="num">Dual</th>
          <th className="num">Burned reuse</th>
          {!compact && <th>SSE resumes</th>}
          {!compact && (
            <th>
              <Term hint="Requests from this server's reporters that Doorwatch refused in the selected time range (bad signature, clock skew, …), and the latest reason.">
                Refused at ingest
              </Term>
            </th>
          )}
          {!compact && <th>Registered</th>}
        </>
      }
    >
      {sorted.map((s) => (
        <tr key={s.name} data-testid={`server-row-${s.name}`}>
          <td>
            <RowLink href={link('/', { server: s.name })} title="Overview for this server" className="mono">
              {s.name}
            </RowLink>
          </td>
          <td>
            <VerdictChip verdict={s.verdict} /> <ReporterLossChip loss={s.reporterLoss} />
            {!compact && (
              <div className="small muted" data-testid="verdict-text">
                {s.verdictText}
              </div>
            )}
          </td>
          <td className="ts">
            <RelTime value={s.lastSeenAt} tz={global.tz} testId="server-last-seen" />
          </td>
          <td className="num">
            <RowLink href={sl(s.name)}>{fmtInt(s.sessions)}</RowLink>
          </td>
          {!compact && <td className="num">{fmtInt(s.events)}</td>}
          <td className="num">
            <RowLink href={sl(s.name, 'boundary')}>{fmtInt(s.counts.boundary)}</RowLink>
          </td>
          <td className="num">
            <RowLink href={sl(s.name, 'refused')}>{fmtInt(s.counts.refused)}</RowLink>
          </td>
          <td className="num">
            <RowLink href={sl(s.name, 'naive_resume')} className={s.counts.naiveResumes ? 'bad-text' : ''}>
              {fmtInt(s.counts.naiveResumes)}
            </RowLink>
          </td>
          <td className="num">
            <RowLink href={sl(s.name, 'dual_negotiation')} className={s.counts.dualNegotiations ? 'bad-text' : ''}>
              {fmtInt(s.counts.dualNegotiations)}
            </RowLink>
          </td>
          <td className="num">
            <RowLink href={sl(s.name, 'burned_token_reuse')} className={s.counts.burnedTokenReuses ? 'bad-text' : ''}>
              {fmtInt(s.counts.burnedTokenReuses)}
            </RowLink>
          </td>
          {!compact && (
            <td>
              <ResumptionCell r={s.resumption} flagLink={(flag) => sl(s.name, flag)} />
            </td>
          )}
          {!compact && (
            <td>
              <RejectionsCell r={s.rejections} nowMs={query.dataUpdatedAt} />
            </td>
          )}
          {!compact && (
            <td className="ts">
              <RelTime value={s.registeredAt} tz={global.tz} />
            </td>
          )}
        </tr>
      ))}
    </DataTable>
  );
}
