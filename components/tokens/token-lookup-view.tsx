'use client';
import { RowLink } from '@/components/row-link';
import { useRouter } from 'next/navigation';
import { useEffect } from 'react';
import { Flags, StateChip } from '@/components/sessions/flag-chip';
import { sessionHref } from '@/components/sessions/sessions-view';
import { Empty, ErrorState, Loading } from '@/components/states';
import { fmtMatchCount } from '@/lib/ui/format';
import { RelTime } from '@/components/rel-time';
import { TableScroll } from '@/components/table-scroll';
import { useTokenLookup } from '@/lib/ui/queries';
import { useUrlState } from '@/lib/ui/url-state';

/** Token lookup across all servers and all time (independent of the time picker). */
export function TokenLookupView({ token }: { token: string }) {
  const { link, global } = useUrlState();
  const router = useRouter();
  const q = useTokenLookup(token);
  const sessions = q.data?.sessions ?? [];
  const exact = sessions.filter((s) => s.token === token);

  const target = exact.length === 1 ? sessionHref(link, exact[0]) : null;
  useEffect(() => {
    // One exact match: go straight to its timeline (replace, so Back returns to where the lookup started).
    if (target) router.replace(target);
  }, [target, router]);

  return (
    <div className="stack" data-testid="token-lookup-page">
      <div className="page-head">
        <h1>Token lookup</h1>
        <span className="sub mono">{token}</span>
        <span className="sub small">all servers, any time</span>
        {q.data && (
          <span className="sub small" data-testid="list-total">
            {fmtMatchCount(q.data.total, q.data.totalCapped, ['session', 'sessions'])}
          </span>
        )}
      </div>
      <section className="panel">
        {q.isPending || exact.length === 1 ? (
          <Loading label="Looking up…" />
        ) : q.isError ? (
          <ErrorState error={q.error} onRetry={() => void q.refetch()} />
        ) : sessions.length === 0 ? (
          <Empty title="No session with this token">
            No server has reported a token starting with <code>{token}</code>.
          </Empty>
        ) : (
          <TableScroll>
            <table className="data">
              <thead>
                <tr>
                  <th>Server</th>
                  <th>Token</th>
                  <th>State</th>
                  <th>Flags</th>
                  <th>Last event</th>
                </tr>
              </thead>
              <tbody>
                {sessions.map((s) => (
                  <tr key={`${s.server}/${s.token}`}>
                    <td className="mono">{s.server}</td>
                    <td>
                      <RowLink className="mono" href={sessionHref(link, s)}>
                        {s.token}
                      </RowLink>
                    </td>
                    <td>
                      <StateChip state={s.state} />
                    </td>
                    <td>
                      <Flags flags={s.flags} />
                    </td>
                    <td className="ts">
                      <RelTime value={s.lastEventAt} tz={global.tz} testId="session-last-event" />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>
    </div>
  );
}
