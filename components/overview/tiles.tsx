'use client';
// The row of headline figures at the top of the overview, each a link to the sessions it counts.
import type { ReactNode } from 'react';
import { RowLink } from '@/components/row-link';
import type { TStatsResponse } from '@/lib/contract/api/stats';
import type { ParamPatch } from '@/lib/ui/url-state';
import { fmtInt, fmtLatency, fmtPct } from '@/lib/ui/format';
import { IdleTime } from './alarm-banner';
import { fmtPercentileMethod } from './figures';

type Tone = 'bad' | 'good' | 'warn';

interface TileSpec {
  label: string;
  value: string;
  sub?: ReactNode;
  tone?: Tone;
  /** Session-list flag the tile links to; none lists every session. */
  flag?: string;
  testId: string;
}

function Tile({ label, value, sub, tone, href, testId }: TileSpec & { href: string }) {
  return (
    <RowLink href={href} className={`tile ${tone ?? ''}`} data-testid={testId} title="List these sessions">
      <span className="tile-label">{label}</span>
      <span className="tile-value">{value}</span>
      {sub && <span className="tile-sub">{sub}</span>}
    </RowLink>
  );
}

/** The tone when the count is above zero. */
const toneIf = (count: number, tone: Tone): Tone | undefined => (count > 0 ? tone : undefined);

function tiles(s: TStatsResponse, idle: ReactNode): TileSpec[] {
  return [
    {
      label: 'Deadlocks',
      value: fmtInt(s.deadlocks.total),
      sub: (
        <>
          idle {idle} · {fmtInt(s.deadlocks.ongoing)} ongoing
        </>
      ),
      tone: toneIf(s.deadlocks.total, 'bad'),
      flag: 'deadlock',
      testId: 'tile-deadlocks',
    },
    {
      label: 'Boundary entries',
      value: fmtInt(s.boundary),
      sub: 'resumes after upgrade.accepted',
      tone: toneIf(s.boundary, 'warn'),
      flag: 'boundary',
      testId: 'tile-boundary',
    },
    {
      label: 'Refused',
      value: fmtInt(s.refused),
      sub: s.boundary > 0 ? `${fmtPct(s.refused / s.boundary, 1)} of boundary` : 'session-superseded',
      tone: toneIf(s.refused, 'good'),
      flag: 'refused',
      testId: 'tile-refused',
    },
    {
      label: 'Naive resumes',
      value: fmtInt(s.naiveResumes),
      sub: 'idle stream handed back',
      tone: toneIf(s.naiveResumes, 'bad'),
      flag: 'naive_resume',
      testId: 'tile-naive',
    },
    {
      label: 'Dual negotiations',
      value: fmtInt(s.dualNegotiations),
      sub: 'second upgrade.accepted (409)',
      tone: toneIf(s.dualNegotiations, 'bad'),
      flag: 'dual_negotiation',
      testId: 'tile-dual',
    },
    {
      label: 'Burned-token reuse',
      value: fmtInt(s.burnedTokenReuses),
      sub: 'resume on a refused token',
      tone: toneIf(s.burnedTokenReuses, 'bad'),
      flag: 'burned_token_reuse',
      testId: 'tile-burned',
    },
    {
      label: 'Refusal p95',
      value: fmtLatency(s.refusalLatencyMs.p95),
      sub: `p50 ${fmtLatency(s.refusalLatencyMs.p50)} · n=${fmtInt(s.refusalLatencyMs.count)} · ${fmtPercentileMethod(s.percentiles.refusal)}`,
      flag: 'refused',
      testId: 'tile-refusal-p95',
    },
    {
      label: 'Renegotiations',
      value: fmtInt(s.renegotiations.count),
      sub: `rate ${fmtPct(s.renegotiations.rate, 2)} · ${fmtInt(s.renegotiations.under200ms)} ≤ 200 ms`,
      flag: 'renegotiated',
      testId: 'tile-renegotiations',
    },
    { label: 'Sessions', value: fmtInt(s.sessions), sub: `${fmtInt(s.drops)} stream drops`, testId: 'tile-sessions' },
  ];
}

export function Tiles({
  stats,
  receivedAt,
  sessionsLink,
}: {
  stats: TStatsResponse;
  receivedAt: number;
  sessionsLink: (extra: ParamPatch) => string;
}) {
  return (
    <div className="tiles">
      {tiles(stats, <IdleTime stats={stats} receivedAt={receivedAt} />).map((t) => (
        <Tile key={t.testId} {...t} href={sessionsLink(t.flag ? { flag: t.flag } : {})} />
      ))}
    </div>
  );
}
