'use client';
import { ServerTable } from '@/components/overview/server-table';
import { AddProbeTarget, ProbePanel } from '@/components/probes/probe-panel';
import { fmtInt } from '@/lib/ui/format';
import { useMe, useServers } from '@/lib/ui/queries';
import { useUrlState } from '@/lib/ui/url-state';

export function ServersView() {
  const { global } = useUrlState();
  const q = useServers(global.refresh, { from: global.from, to: global.to });
  const me = useMe();
  const admin = me.data?.operator.role === 'admin';
  const servers = q.data?.servers ?? [];
  const naive = servers.filter((s) => s.verdict === 'naive').length;
  const refuses = servers.filter((s) => s.verdict === 'refuses').length;
  const sseOnly = servers.filter((s) => ['resumes_correctly', 'lossy_resumes', 'idle_resumes'].includes(s.verdict)).length;
  return (
    <div className="stack" data-testid="servers">
      <div className="page-head">
        <h1>Servers</h1>
        {q.data && (
          <span className="sub small">
            <span data-testid="list-total">
              {fmtInt(servers.length)} {servers.length === 1 ? 'server' : 'servers'}
            </span>{' '}
            · <span className="good-text">{refuses} refuse correctly</span> ·{' '}
            <span className={naive ? 'bad-text' : ''}>{naive} resume naively</span> · {sseOnly} judged by their SSE resumes ·{' '}
            {servers.length - naive - refuses - sseOnly} not yet tested
          </span>
        )}
      </div>
      <section className="panel">
        <ServerTable query={q} />
      </section>
      {admin && q.data && <AddProbeTarget servers={servers.map((s) => s.name)} />}
      {servers.map((s) => (
        <ProbePanel key={s.name} server={s.name} admin={admin} />
      ))}
      <p className="small muted">
        Verdicts cover all stored data, not only the selected time range. <strong>refuses</strong>: every answered boundary resume got{' '}
        <code>session-superseded</code>. <strong>resumes naively</strong>: at least one naive resume, dual negotiation or reuse of a burned
        token. Servers never seen at the boundary (e.g. the official MCP SDK) are judged by their ordinary resumes:{' '}
        <strong>resumes correctly</strong>, <strong>lossy resumes</strong> (fewer events replayed than the store held after the cursor) or{' '}
        <strong>idle resumes</strong> (200 and nothing, while events were pending). <strong>unknown</strong>: nothing of either kind has
        been answered yet. The text beside a verdict says what it rests on: the latest door probe (“probed 2 min ago”), observed traffic, or
        both; a probe that shows a naive answer makes the verdict naive, a passed one makes an untested server “refuses”.{' '}
        <strong>⚠ N lost</strong>: the server’s reporters dropped or gave up on N events before sending them, so its numbers may be
        incomplete. <strong>Refused at ingest</strong>: its ingest requests Doorwatch refused in the selected range, and the latest reason
        (the sender only ever sees a generic 401).
      </p>
      {q.data && q.data.unknownServers.count > 0 && (
        <p className="notice small" role="status" data-testid="unknown-server-rejections">
          <strong className="num">{fmtInt(q.data.unknownServers.count)}</strong> ingest requests in this range named no registered server
          {q.data.unknownServers.recentNames.length > 0 && (
            <>
              {' '}
              (last names seen: <code>{q.data.unknownServers.recentNames.join(', ')}</code>)
            </>
          )}
          : register the server, or fix the name in its reporter’s URL.
        </p>
      )}
    </div>
  );
}
