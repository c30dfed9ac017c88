'use client';
import { ServerTable } from '@/components/overview/server-table';
import { fmtInt } from '@/lib/ui/format';
import { useServers } from '@/lib/ui/queries';
import { useUrlState } from '@/lib/ui/url-state';

export function ServersView() {
  const { global } = useUrlState();
  const q = useServers(global.refresh, { from: global.from, to: global.to });
  const servers = q.data?.servers ?? [];
  const naive = servers.filter((s) => s.verdict === 'naive').length;
  const refuses = servers.filter((s) => s.verdict === 'refuses').length;
  return (
    <div className="stack" data-testid="servers">
      <div className="page-head">
        <h1>Servers</h1>
        {q.data && (
          <span className="sub small">
            {fmtInt(servers.length)} servers · <span className="good-text">{refuses} refuse correctly</span> · <span className={naive ? 'bad-text' : ''}>{naive} resume naively</span> ·{' '}
            {servers.length - naive - refuses} not yet tested at the boundary
          </span>
        )}
      </div>
      <section className="panel">
        <ServerTable query={q} />
      </section>
      <p className="small muted">
        Verdicts cover all stored data, not only the selected time range. <strong>refuses</strong>: every answered boundary resume got{' '}
        <code>session-superseded</code>. <strong>naive</strong>: at least one naive resume, dual negotiation or reuse of a burned token.{' '}
        <strong>unknown</strong>: no boundary resume has been answered yet. <strong>⚠ N lost</strong>: the server’s reporters
        dropped or gave up on N events before sending them, so its numbers may be incomplete. <strong>Rejected</strong>: its ingest
        requests Doorwatch refused in the selected range, and the latest reason (the sender only ever sees a generic 401).
      </p>
      {q.data && q.data.unknownServers.count > 0 && (
        <p className="notice small" role="status" data-testid="unknown-server-rejections">
          <strong className="num">{fmtInt(q.data.unknownServers.count)}</strong> ingest requests in this range named no registered server
          {q.data.unknownServers.recentNames.length > 0 && <> (last names seen: <code>{q.data.unknownServers.recentNames.join(', ')}</code>)</>}: register the
          server, or fix the name in its reporter’s URL.
        </p>
      )}
    </div>
  );
}
