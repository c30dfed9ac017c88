'use client';
// The renegotiation chain: the sessions before this one, this one, and those that followed, each a
// link, with the renegotiation latency on each arrow.
import { Panel } from '@/components/panel';
import { RowLink } from '@/components/row-link';
import type { TChainLink, TSessionDetailResponse } from '@/lib/contract/api/session-detail';
import { fmtLatency, fmtTime, shortToken, type TimeZoneMode } from '@/lib/ui/format';
import type { ParamPatch } from '@/lib/ui/url-state';
import { Flags } from './flag-chip';

function ChainNode({ link: l, href, current, tz }: { link: TChainLink; href: string | null; current?: boolean; tz: TimeZoneMode }) {
  const body = (
    <>
      <span className="mono small">{shortToken(l.token, 26)}</span>
      <span className="small muted">
        {l.server} · opened {fmtTime(l.openedAt, tz, false)}
      </span>
      <Flags flags={l.flags} />
    </>
  );
  return current ? (
    <div className="chain-node current" aria-current="page">
      {body}
    </div>
  ) : (
    <RowLink href={href!} className="chain-node" data-testid="chain-link" data-token={l.token}>
      {body}
    </RowLink>
  );
}

export function ChainPanel({
  detail,
  tz,
  link,
}: {
  detail: TSessionDetailResponse;
  tz: TimeZoneMode;
  link: (path: string, extra?: ParamPatch) => string;
}) {
  const s = detail.session;
  const preds = detail.chain.predecessors;
  const succs = detail.chain.successors;
  const sessionHref = (server: string, t: string) => link(`/servers/${encodeURIComponent(server)}/sessions/${encodeURIComponent(t)}`);
  return (
    <Panel id="h-chain" title="Renegotiation chain" aside={detail.chain.truncated && 'chain truncated'}>
      <div className="panel-body">
        <div className="chain" data-testid="chain">
          {preds.length === 0 && !s.previousToken && <span className="small muted chain-arrow">no predecessor</span>}
          {preds.length === 0 && s.previousToken && (
            <>
              <RowLink className="chain-node" href={link(`/tokens/${encodeURIComponent(s.previousToken)}`)} data-testid="predecessor-link">
                <span className="mono small">{shortToken(s.previousToken, 26)}</span>
                <span className="small muted">predecessor (not stored)</span>
              </RowLink>
              <span className="chain-arrow">→</span>
            </>
          )}
          {preds.map((p) => (
            <span key={`${p.server}/${p.token}`} className="row gap">
              <ChainNode link={p} href={sessionHref(p.server, p.token)} tz={tz} />
              <span className="chain-arrow">
                → {p.renegotiationLatencyMs !== null && <span className="small">{fmtLatency(p.renegotiationLatencyMs)}</span>}
              </span>
            </span>
          ))}
          <ChainNode
            link={{
              server: s.server,
              token: s.token,
              state: s.state,
              flags: s.flags,
              openedAt: s.openedAt,
              lastEventAt: s.lastEventAt ?? s.firstEventAt,
              refusedAt: s.refusedAt,
              renegotiationLatencyMs: s.renegotiationLatencyMs,
            }}
            href={null}
            current
            tz={tz}
          />
          {succs.map((n, i) => (
            <span key={`${n.server}/${n.token}`} className="row gap">
              <span className="chain-arrow">
                → {i === 0 && s.renegotiationLatencyMs !== null && <span className="small">{fmtLatency(s.renegotiationLatencyMs)}</span>}
              </span>
              <ChainNode link={n} href={sessionHref(n.server, n.token)} tz={tz} />
            </span>
          ))}
          {succs.length === 0 && s.successorToken && (
            <>
              <span className="chain-arrow">→</span>
              <RowLink
                className="chain-node"
                href={sessionHref(s.successorServer ?? s.server, s.successorToken)}
                data-testid="chain-link"
                data-token={s.successorToken}
              >
                <span className="mono small">{shortToken(s.successorToken, 26)}</span>
                <span className="small muted">successor</span>
              </RowLink>
            </>
          )}
          {succs.length === 0 && !s.successorToken && <span className="small muted chain-arrow">no successor</span>}
        </div>
      </div>
    </Panel>
  );
}
