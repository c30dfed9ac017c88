'use client';
// The per-server status strip at the top of the overview: for each server (honouring the server
// filter) its conformance verdict, sessions stuck now, boundary answers and deadlocks in range,
// a sparkline, and how long ago it was last heard from (amber, then red, when it goes quiet).
import { RowLink } from '@/components/row-link';
import { useState } from 'react';
import type { TServerListResponse, TServerVerdict } from '@/lib/contract/api/servers';
import type { TServerSplit } from '@/lib/contract/api/stats';
import { lastSeenTone } from '@/lib/ui/data-age';
import { fmtDateTime, fmtInt, type TimeZoneMode } from '@/lib/ui/format';
import { useDataNow } from '@/lib/ui/use-staleness';
import { stuckSessionsParams } from '@/lib/ui/stuck-sessions-link';
import { useUrlState } from '@/lib/ui/url-state';
import { VerdictChip } from './server-table';

const W = 96;
const H = 22;

/** Boundary entries per bucket as bars, deadlocks as red marks on top. */
function Sparkline({ series, server }: { series: TServerSplit['series']; server: string }) {
  const max = Math.max(1, ...series.map((b) => Math.max(b.boundary, b.deadlocks)));
  const bw = W / Math.max(1, series.length);
  return (
    <svg
      width={W}
      height={H}
      viewBox={`0 0 ${W} ${H}`}
      role="img"
      aria-label={`Boundary entries and deadlocks per bucket on ${server}`}
      className="spark"
    >
      {series.map((b, i) => {
        const h = (b.boundary / max) * (H - 2);
        const naive = b.naiveResumes > 0;
        return (
          <g key={b.t}>
            {b.boundary > 0 && (
              <rect x={i * bw} y={H - h} width={Math.max(1, bw - 1)} height={h} className={naive ? 'spark-bad' : 'spark-ok'} />
            )}
            {b.deadlocks > 0 && <rect x={i * bw} y={0} width={Math.max(1, bw - 1)} height={3} className="spark-bad" />}
          </g>
        );
      })}
      <line x1={0} x2={W} y1={H - 0.5} y2={H - 0.5} className="spark-axis" />
    </svg>
  );
}

const ago = (ms: number) =>
  ms < 90_000
    ? `${Math.max(0, Math.round(ms / 1000))} s ago`
    : ms < 90 * 60_000
      ? `${Math.round(ms / 60_000)} min ago`
      : `${Math.round(ms / 3_600_000)} h ago`;

interface StripRow {
  name: string;
  verdict: TServerVerdict;
  lastSeenAt: string | null;
  split: TServerSplit | undefined;
}

/**
 * Cards shown before the rest fold into one "+N more" card: two rows at 1440 px, so on a big fleet
 * the strip stays above the fold. The broken servers sort first, so what folds is the healthiest.
 */
export const STRIP_CARDS = 9;

// Broken first: naive, then lossy or idle resumes, then what is not known yet, then the healthy ones.
const RANK: Record<TServerVerdict, number> = { naive: 0, idle_resumes: 1, lossy_resumes: 2, unknown: 3, resumes_correctly: 4, refuses: 5 };

export function ServerStrip({
  servers,
  byServer,
  filter,
  rangeFrom,
  tz,
}: {
  servers: TServerListResponse | undefined;
  byServer: readonly TServerSplit[];
  filter: string;
  /** The stats' resolved range start: a server's stuck list widens back to its longest wait. */
  rangeFrom: string;
  tz: TimeZoneMode;
}) {
  const { link } = useUrlState();
  // Stops with the data while the page is stale: a server must not turn "quiet" because Doorwatch did.
  const now = useDataNow(1000);
  const [expanded, setExpanded] = useState(false);
  const splits = new Map(byServer.map((b) => [b.server, b]));
  const known = servers?.servers ?? [];
  const rows: StripRow[] = known.map((s) => ({ name: s.name, verdict: s.verdict, lastSeenAt: s.lastSeenAt, split: splits.get(s.name) }));
  for (const b of byServer)
    if (!known.some((s) => s.name === b.server)) rows.push({ name: b.server, verdict: 'unknown', lastSeenAt: null, split: b });
  const shown = rows
    .filter((r) => !filter || r.name === filter)
    // The broken server first: stuck now, then naive answers in range, then the verdict.
    .sort(
      (a, b) =>
        (b.split?.stuckNow ?? 0) - (a.split?.stuckNow ?? 0) ||
        (b.split?.naiveResumes ?? 0) - (a.split?.naiveResumes ?? 0) ||
        RANK[a.verdict] - RANK[b.verdict] ||
        a.name.localeCompare(b.name),
    );
  if (shown.length === 0) return null;
  // A lone extra server gets its own card rather than a "+1 more".
  const visible = expanded || shown.length <= STRIP_CARDS + 1 ? shown : shown.slice(0, STRIP_CARDS);
  const folded = shown.slice(visible.length);
  return (
    <div className="server-strip" data-testid="server-strip" aria-label="Servers: status now and in this range">
      {visible.map((r) => {
        const seenAge = r.lastSeenAt ? now - Date.parse(r.lastSeenAt) : null;
        const seenTone = lastSeenTone(seenAge);
        const sp = r.split;
        const stuck = sp?.stuckNow ?? 0;
        const answered = (sp?.refused ?? 0) + (sp?.naiveResumes ?? 0);
        return (
          <div
            key={r.name}
            className={`strip-card ${stuck > 0 ? 'bad' : sp && sp.naiveResumes + sp.dualNegotiations > 0 ? 'warn' : ''}`}
            data-testid={`strip-${r.name}`}
          >
            <div className="strip-head">
              <RowLink href={link('/', { server: r.name })} className="mono strip-name" title="Overview for this server">
                {r.name}
              </RowLink>
              <VerdictChip verdict={r.verdict} />
            </div>
            <div className="strip-figures">
              <RowLink
                href={link('/sessions', { server: r.name, ...stuckSessionsParams(sp?.stuckSince ?? null, rangeFrom) })}
                className={stuck > 0 ? 'bad-text' : ''}
                data-testid={`strip-stuck-${r.name}`}
              >
                <strong className="num">{fmtInt(stuck)}</strong> stuck now
              </RowLink>
              <RowLink
                href={link('/sessions', { server: r.name, flag: 'boundary' })}
                title={`${fmtInt(sp?.refused ?? 0)} refused, ${fmtInt(sp?.naiveResumes ?? 0)} naive`}
                data-testid={`strip-answered-${r.name}`}
              >
                <strong className="num">{fmtInt(answered)}</strong> answered
                {sp && sp.naiveResumes > 0 ? <span className="bad-text"> ({fmtInt(sp.naiveResumes)} naive)</span> : null}
              </RowLink>
              <RowLink
                href={link('/sessions', { server: r.name, flag: 'deadlock' })}
                className={sp && sp.deadlocks > 0 ? 'bad-text' : ''}
                data-testid={`strip-deadlocks-${r.name}`}
              >
                <strong className="num">{fmtInt(sp?.deadlocks ?? 0)}</strong> deadlocks
              </RowLink>
            </div>
            <div className="strip-foot">
              {sp ? <Sparkline series={sp.series} server={r.name} /> : <span className="small muted">no activity in range</span>}
              <span
                className={`strip-seen ${seenTone}`}
                data-testid={`strip-seen-${r.name}`}
                data-tone={seenTone}
                title={r.lastSeenAt ? `Last event ${fmtDateTime(r.lastSeenAt, tz)}` : 'Never reported'}
              >
                {seenAge === null ? 'never seen' : `last seen ${ago(seenAge)}`}
              </span>
            </div>
          </div>
        );
      })}
      {folded.length > 0 && (
        <button type="button" className="strip-card strip-more" onClick={() => setExpanded(true)} data-testid="strip-more">
          <strong>+{fmtInt(folded.length)} more servers</strong>
          <span className="small muted">{foldedSummary(folded, now)}</span>
        </button>
      )}
    </div>
  );
}

/** What the folded cards hold, so nothing is hidden silently: "4 refuse · 1 unknown · 2 quiet". */
function foldedSummary(rows: readonly StripRow[], now: number): string {
  const byVerdict = new Map<TServerVerdict, number>();
  for (const r of rows) byVerdict.set(r.verdict, (byVerdict.get(r.verdict) ?? 0) + 1);
  const parts = [...byVerdict].sort((a, b) => RANK[a[0]] - RANK[b[0]]).map(([v, n]) => `${fmtInt(n)} ${VERDICT_WORD[v]}`);
  const quiet = rows.filter((r) => lastSeenTone(r.lastSeenAt ? now - Date.parse(r.lastSeenAt) : null) !== 'fresh').length;
  if (quiet > 0) parts.push(`${fmtInt(quiet)} quiet`);
  return parts.join(' · ');
}

const VERDICT_WORD: Record<TServerVerdict, string> = {
  naive: 'naive',
  idle_resumes: 'idle resumes',
  lossy_resumes: 'lossy resumes',
  unknown: 'unknown',
  resumes_correctly: 'resume correctly',
  refuses: 'refuse',
};
