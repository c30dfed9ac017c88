'use client';
// The session's heading (token, server, state, flags, links to the range around it) and, while it is
// deadlocked, the alarm saying which kind of naive resume caused it.
import { RowLink } from '@/components/row-link';
import type { TSessionView } from '@/lib/contract/api/sessions';
import { fmtDuration } from '@/lib/ui/format';
import { naiveShape, type SideStep } from '@/lib/boundary/sides';
import type { ParamPatch } from '@/lib/ui/url-state';
import { Flags, StateChip } from './flag-chip';

export function SessionHead({
  session: s,
  sides,
  around,
  link,
}: {
  session: TSessionView;
  sides: SideStep[];
  /** A window around this session for "see it on the overview / in the list". */
  around: { from: string; to: string };
  link: (path: string, extra?: ParamPatch) => string;
}) {
  return (
    <>
      <div className="page-head">
        <h1>
          Session{' '}
          <span className="mono" style={{ fontSize: 15 }} data-testid="session-token">
            {s.token}
          </span>
        </h1>
        <span className="sub">
          on{' '}
          <RowLink href={link('/sessions', { server: s.server })} className="mono">
            {s.server}
          </RowLink>
        </span>
        <StateChip state={s.state} />
        <Flags flags={s.flags} />
        <span className="row gap" style={{ marginLeft: 'auto' }}>
          <RowLink className="btn btn-xs" href={link('/', { ...around, server: s.server })} title="Overview around this session">
            Overview at this time
          </RowLink>
          <RowLink className="btn btn-xs" href={link('/sessions', { ...around, server: s.server })}>
            Sessions around it
          </RowLink>
        </span>
      </div>

      {/* Kept once the deadlock ends (amber, in the past tense) so the page does not jump when it does. */}
      {s.deadlock && (
        <div
          className={`alarm ${s.deadlock.ongoing ? '' : 'warn-level'}`}
          role={s.deadlock.ongoing ? 'alert' : undefined}
          data-testid="deadlock-banner"
          data-ongoing={s.deadlock.ongoing}
        >
          <span className="alarm-count">●</span>
          <div className="alarm-text">
            <strong>
              {s.deadlock.ongoing ? 'Deadlocked for' : s.deadlock.endUnreported ? 'Deadlocked for at least' : 'Was deadlocked for'}{' '}
              <span className="num" data-testid="deadlocked-for">
                {fmtDuration(s.deadlock.durationMs)}
              </span>
            </strong>
            <div className="small" data-testid="deadlock-shape">
              {naiveShape(sides) === 'server_holds_upgrade' ? (
                <>
                  The server accepted a fresh stream on this token without <code>Last-Event-ID</code> while its{' '}
                  <code>upgrade.accepted</code> was still pending. Both ends are on SSE, but the server{' '}
                  {s.deadlock.ongoing ? 'still holds' : 'held'} the pending upgrade: the token {s.deadlock.ongoing ? 'is' : 'was'} stuck,
                  and the next negotiation on it collides (409).
                </>
              ) : (
                <>
                  The server accepted a resume after <code>upgrade.accepted</code> and handed back an idle SSE stream; the client{' '}
                  {s.deadlock.ongoing ? 'is still waiting for a handshake.' : 'waited for a handshake that never came.'}
                </>
              )}
              {s.deadlock.endUnreported &&
                ' The server never reported how the session ended, and a wait cannot outlast its idle timeout: no longer counted as stuck.'}
            </div>
          </div>
        </div>
      )}
    </>
  );
}
