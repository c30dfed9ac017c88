'use client';
import { RowLink } from '@/components/row-link';
import { useRouter } from 'next/navigation';
import { useEffect, useMemo, useRef, useState, type ReactNode, type RefObject } from 'react';
import { Panel } from '@/components/panel';
import { HistogramChart, SeriesChart } from '@/components/charts/lazy-charts';
import { Legend, msTick, type SeriesDef, type SeriesRow } from '@/components/charts/series-legend';
import { Empty, ErrorState, Skeleton } from '@/components/states';
import type { TPercentileMethod, TStatsResponse } from '@/lib/contract/api/stats';
import { alignRows, percentAxis, tickBudget, tickLabelPx, timeAxis, type PercentAxis, type TimeAxis } from '@/lib/ui/chart-axis';
import { fmtDuration, fmtLatency, fmtInt, fmtPct } from '@/lib/ui/format';
import { OTHER_COLOR, SERVER_COLORS, serverColorSlots } from '@/lib/ui/palette';
import { splitByServer, type SplitMeasure } from '@/lib/ui/server-split';
import { overviewStatsParams } from '@/lib/ui/query-defs';
import { useServers, useStats } from '@/lib/ui/queries';
import { formatInstant } from '@/lib/time/instant';
import { useNow } from '@/lib/ui/use-now';
import { readSplit, useUrlState, type ParamPatch } from '@/lib/ui/url-state';
import { AlarmBanner, IdleTime, useAlarm, useRefetchAtNextDeadlock } from './alarm-banner';
import { ServerStrip } from './server-strip';

const BOUNDARY_SERIES: SeriesDef[] = [
  { key: 'refused', label: 'Refused (correct)', color: 'refused', stack: 'b', flag: 'refused' },
  { key: 'naiveResumes', label: 'Naive resume', color: 'naive', stack: 'b', flag: 'naive_resume' },
  { key: 'unanswered', label: 'Unanswered', color: 'pending', stack: 'b', flag: 'boundary' },
];
const DEADLOCK_SERIES: SeriesDef[] = [
  { key: 'deadlocks', label: 'Deadlocks', color: 'deadlock', stack: 'd', flag: 'deadlock' },
  { key: 'dualNegotiations', label: 'Dual negotiations', color: 'dual', stack: 'd', flag: 'dual_negotiation' },
  { key: 'burnedTokenReuses', label: 'Burned-token reuse', color: 'pending', stack: 'd', flag: 'burned_token_reuse' },
];
const RENEG_SERIES: SeriesDef[] = [
  { key: 'drops', label: 'Stream drops', color: 'drops', stack: 'r' },
  { key: 'renegotiations', label: 'Renegotiations', color: 'reneg', stack: 'r', flag: 'renegotiated' },
  { key: 'rate', label: 'Renegotiation rate', color: 'accent', kind: 'line', right: true, format: (v) => fmtPct(v, 1) },
];

const REFUSAL_LATENCY_SERIES: SeriesDef[] = [
  { key: 'refusalP50', label: 'p50', color: 'refused', kind: 'line', format: fmtLatency },
  { key: 'refusalP95', label: 'p95', color: 'pending', kind: 'line', dashed: true, format: fmtLatency },
  { key: 'refusalN', label: 'refusals', color: 'muted', kind: 'tip', format: fmtInt },
];
const RENEG_LATENCY_SERIES: SeriesDef[] = [
  { key: 'renegP50', label: 'p50', color: 'reneg', kind: 'line', format: fmtLatency },
  { key: 'renegP95', label: 'p95', color: 'pending', kind: 'line', dashed: true, format: fmtLatency },
  { key: 'renegN', label: 'renegotiations', color: 'muted', kind: 'tip', format: fmtInt },
];

/** One per-bucket chart on the overview. */
interface ChartSpec {
  series: SeriesDef[];
  height: number;
  ariaLabel: string;
  testId: string;
  /** Session-list flag a click drills into when it hit no flagged series (also the panel's list link). */
  flag: string;
  /** Title of the panel's list link. */
  listTitle?: string;
  /** Caption (with legend) shown above the chart. */
  caption?: string;
  leftFormat?: (v: number) => string;
  /** With ?split=server: the per-server counter drawn instead (one stacked series per server). */
  splitMeasure?: SplitMeasure;
}

const CHARTS = {
  boundary: {
    series: BOUNDARY_SERIES,
    height: 210,
    ariaLabel: 'Boundary entries per bucket, by outcome',
    testId: 'chart-boundary',
    flag: 'boundary',
    splitMeasure: 'boundary',
    listTitle: 'List every boundary session in this range',
  },
  deadlocks: {
    series: DEADLOCK_SERIES,
    height: 210,
    ariaLabel: 'Deadlocks and dual negotiations per bucket',
    testId: 'chart-deadlocks',
    flag: 'deadlock',
    splitMeasure: 'deadlocks',
    listTitle: 'List deadlocked sessions in this range',
  },
  refusalLatency: {
    series: REFUSAL_LATENCY_SERIES,
    height: 130,
    leftFormat: msTick,
    ariaLabel: 'Refusal latency p50 and p95 per bucket',
    testId: 'chart-refusal-percentiles',
    flag: 'refused',
    caption: 'Refusal latency per bucket (ms)',
  },
  renegotiations: {
    series: RENEG_SERIES,
    height: 130,
    ariaLabel: 'Stream drops, renegotiations and renegotiation rate per bucket',
    testId: 'chart-renegotiations',
    flag: 'renegotiated',
    splitMeasure: 'renegotiations',
    listTitle: 'List renegotiated sessions in this range',
  },
  renegotiationLatency: {
    series: RENEG_LATENCY_SERIES,
    height: 130,
    leftFormat: msTick,
    ariaLabel: 'Renegotiation latency p50 and p95 per bucket',
    testId: 'chart-renegotiation-percentiles',
    flag: 'renegotiated',
    caption: 'Renegotiation latency per bucket (ms)',
  },
} satisfies Record<string, ChartSpec>;

/** Horizontal room a chart's axes take from its box (series-chart.tsx: 44 px each side, -14 px margin, 4 px gap). */
const CHART_AXES_PX = 44 - 14 + 44 + 4;

/** The width of an element, kept current as it resizes (0 until measured). */
function useWidth(ref: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const read = () => setWidth(Math.round(el.getBoundingClientRect().width));
    read();
    const ro = new ResizeObserver(read);
    ro.observe(el);
    return () => ro.disconnect();
  });
  return width;
}

function toRows(stats: TStatsResponse): SeriesRow[] {
  return stats.series.map((b) => ({
    t: Date.parse(b.t),
    refused: b.refused,
    naiveResumes: b.naiveResumes,
    unanswered: Math.max(0, b.boundary - b.refused - b.naiveResumes),
    boundary: b.boundary,
    deadlocks: b.deadlocks,
    dualNegotiations: b.dualNegotiations,
    burnedTokenReuses: b.burnedTokenReuses,
    drops: b.drops,
    renegotiations: b.renegotiations,
    rate: b.drops > 0 ? b.renegotiations / b.drops : null,
    sessions: b.sessions,
    refusalP50: b.refusalLatencyMs.p50,
    refusalP95: b.refusalLatencyMs.p95,
    refusalN: b.refusalLatencyMs.count,
    renegP50: b.renegotiationLatencyMs.p50,
    renegP95: b.renegotiationLatencyMs.p95,
    renegN: b.renegotiationLatencyMs.count,
  }));
}

/** A count chart split by server: stacked bars, one per server of the top few plus "other". */
function splitChart(byServer: TStatsResponse['byServer'], measure: SplitMeasure, flag: string, slots: Map<string, number>) {
  const { series, rows } = splitByServer(byServer ?? [], measure);
  const defs: SeriesDef[] = series.map((x) => {
    const slot = x.server === null ? undefined : slots.get(x.server);
    return {
      key: x.key,
      label: x.label,
      color: 'muted',
      stack: 'srv',
      flag,
      server: x.server ?? undefined,
      paint: slot === undefined ? { ...OTHER_COLOR } : { light: SERVER_COLORS.light[slot], dark: SERVER_COLORS.dark[slot] },
    };
  });
  return { series: defs, rows: rows as SeriesRow[] };
}

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
      sub: `rate ${fmtPct(s.renegotiations.rate, 2)} · ${fmtInt(s.renegotiations.under200ms)} < 200 ms`,
      flag: 'renegotiated',
      testId: 'tile-renegotiations',
    },
    { label: 'Sessions', value: fmtInt(s.sessions), sub: `${fmtInt(s.drops)} stream drops`, testId: 'tile-sessions' },
  ];
}

/** Whether the percentiles shown are exact or from the histograms, and how close (lib/queries/stats.ts). */
function fmtPercentileMethod(m: TPercentileMethod): string {
  return m.method === 'exact' ? 'exact' : `≈ ±${Math.round(m.relativeError * 100)} %`;
}

/** A row of labelled figures (percentiles, rates) above a chart. */
function PctStrip({ items, testId }: { items: [label: string, value: string][]; testId?: string }) {
  return (
    <div className="pct-strip" data-testid={testId}>
      {items.map(([k, v]) => (
        <div key={k}>
          <span className="k">{k}</span>
          <span className="v">{v}</span>
        </div>
      ))}
    </div>
  );
}

function ChartCaption({ title, series }: { title: string; series: SeriesDef[] }) {
  return (
    <div className="row gap small muted" style={{ justifyContent: 'space-between', marginTop: 8 }}>
      <span>{title}</span>
      <Legend series={series} />
    </div>
  );
}

export function OverviewView() {
  const { global, link, set, sp } = useUrlState();
  const split = readSplit(sp);
  const router = useRouter();
  const { from, to, server, refresh, tz } = global;
  // The server's chooser over the server's resolution of the range: the bucket it would pick itself.
  const now = useNow(60_000);
  const statsParams = useMemo(() => overviewStatsParams({ from, to, server }, now), [from, to, server, now]);
  const stats = useStats(statsParams, refresh);
  const servers = useServers(refresh);

  const sessionsLink = (extra: ParamPatch) => link('/sessions', extra);
  const drill = (fromMs: number, toMs: number, flag: string | undefined, fallback: string, barServer?: string) =>
    router.push(
      sessionsLink({
        from: formatInstant(fromMs),
        to: formatInstant(toMs),
        flag: flag ?? fallback,
        ...(barServer ? { server: barServer } : {}),
      }),
    );

  const s = stats.data;
  const rows = useMemo(() => (s ? toRows(s) : []), [s]);
  const alarm = useAlarm(s);
  useRefetchAtNextDeadlock(s, stats.dataUpdatedAt, stats.refetch, refresh !== 'off');
  // Colours over every server in range, so one server has one colour in every chart.
  const slots = useMemo(() => serverColorSlots((s?.byServer ?? []).map((b) => b.server)), [s]);
  const splits = useMemo(() => {
    const out = new Map<SplitMeasure, { series: SeriesDef[]; rows: SeriesRow[] }>();
    if (split !== 'server' || !s) return out;
    for (const spec of Object.values(CHARTS) as ChartSpec[])
      if (spec.splitMeasure) out.set(spec.splitMeasure, splitChart(s.byServer, spec.splitMeasure, spec.flag, slots));
    return out;
  }, [split, s, slots]);
  // One time axis for every panel: the range's buckets and the ticks that fit the (shared) chart width.
  const chartBox = useRef<HTMLDivElement>(null);
  const chartWidth = useWidth(chartBox);
  const axis = useMemo((): TimeAxis | null => {
    if (!s) return null;
    const fromMs = Date.parse(s.range.from);
    const toMs = Date.parse(s.range.to);
    return timeAxis(fromMs, toMs, s.bucketMs, tickBudget(chartWidth - CHART_AXES_PX, tickLabelPx(toMs - fromMs)));
  }, [s, chartWidth]);
  const rateAxis = useMemo((): PercentAxis => percentAxis(rows.map((r) => r.rate)), [rows]);
  /** The series and rows a chart draws: per outcome, or per server when split, on the shared buckets. */
  const view = (spec: ChartSpec) => {
    const v = (spec.splitMeasure && splits.get(spec.splitMeasure)) || { series: spec.series, rows };
    return { series: v.series, rows: axis ? (alignRows(axis.starts, v.rows) as SeriesRow[]) : v.rows };
  };
  const hasRate = (spec: ChartSpec) => view(spec).series.some((x) => x.right);
  const chart = (spec: ChartSpec, bucketMs: number) => (
    <>
      {spec.caption && <ChartCaption title={spec.caption} series={spec.series} />}
      <SeriesChart
        data={view(spec).rows}
        series={view(spec).series}
        bucketMs={bucketMs}
        axis={axis ?? timeAxis(0, bucketMs, bucketMs, 1)}
        tz={tz}
        height={spec.height}
        leftFormat={spec.leftFormat}
        rightScale={hasRate(spec) ? rateAxis : undefined}
        rightFormat={hasRate(spec) ? (v) => fmtPct(v, rateAxis.digits) : undefined}
        ariaLabel={spec.splitMeasure && split === 'server' ? `${spec.ariaLabel}, split by server` : spec.ariaLabel}
        testId={spec.testId}
        onBucketClick={(a, b, flag, barServer) => drill(a, b, flag, spec.flag, barServer)}
      />
    </>
  );
  const legendAndList = (spec: ChartSpec) => (
    <>
      <Legend series={view(spec).series} testId={`legend-${spec.testId}`} />
      <RowLink href={sessionsLink({ flag: spec.flag })} title={spec.listTitle}>
        list →
      </RowLink>
    </>
  );
  const serverNames = servers.data?.servers.map((x) => x.name) ?? [];

  return (
    <div className="stack" data-testid="overview">
      <div className="page-head">
        <h1>Overview</h1>
        <span className="sub small">
          {s ? (
            <>
              {fmtInt(s.sessions)} sessions · {fmtInt(s.events)} events · {s.server ? `server ${s.server}` : 'all servers'} · bucket{' '}
              {fmtDuration(s.bucketMs)}
            </>
          ) : (
            ' '
          )}
        </span>
        <div className="row gap page-head-tools">
          <button
            type="button"
            className={`btn ${split === 'server' ? 'active' : ''}`}
            aria-pressed={split === 'server'}
            onClick={() => set({ split: split === 'server' ? null : 'server' })}
            title="One series per server in the count charts (the top few, the rest as other)"
            data-testid="split-toggle"
          >
            Split by server
          </button>
          <label htmlFor="server-filter">Server</label>
          <select
            id="server-filter"
            className="select"
            value={server}
            onChange={(e) => set({ server: e.target.value || null })}
            data-testid="overview-server-filter"
          >
            <option value="">All servers</option>
            {serverNames.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
            {server && !serverNames.includes(server) && <option value={server}>{server}</option>}
          </select>
        </div>
      </div>

      {stats.isError && !s && (
        <div className="panel">
          <ErrorState error={stats.error} onRetry={() => void stats.refetch()} />
        </div>
      )}
      {stats.isPending && (
        <div className="stack">
          <Skeleton height={52} />
          <Skeleton height={70} />
          <div className="grid grid-2">
            <Skeleton height={240} />
            <Skeleton height={240} />
          </div>
        </div>
      )}

      {s && (
        <div className={`stack ${stats.isPlaceholderData ? 'stale' : ''}`}>
          {stats.isError && (
            <div className="panel">
              <ErrorState error={stats.error} onRetry={() => void stats.refetch()} />
            </div>
          )}
          {alarm && <AlarmBanner alarm={alarm} stats={s} receivedAt={stats.dataUpdatedAt} sessionsLink={sessionsLink} />}

          <ServerStrip servers={servers.data} byServer={s.byServer ?? []} filter={server} tz={tz} />

          {server && servers.data && !serverNames.includes(server) && (
            <div className="notice" role="status" data-testid="unknown-server-notice">
              <span>
                There is no server <strong>{server}</strong>: none is configured by that name and none has reported.
              </span>
              <RowLink href={link('/', { server: null })}>Show all servers →</RowLink>
            </div>
          )}

          {s.deadLetters > 0 && (
            <div className="notice" role="status" data-testid="dead-letter-notice">
              <strong className="num">{fmtInt(s.deadLetters)}</strong>
              <span>
                {s.deadLetters === 1 ? 'payload was' : 'payloads were'} refused at ingest in this range (events that failed the contract or
                bodies that were not a batch): these numbers do not include them.
              </span>
              <RowLink href={link('/dead-letters')} data-testid="dead-letter-notice-link">
                See what was sent →
              </RowLink>
            </div>
          )}

          {s.rejectedRequests > 0 && (
            <div className="notice" role="status" data-testid="rejected-requests-notice">
              <strong className="num">{fmtInt(s.rejectedRequests)}</strong>
              <span>
                ingest {s.rejectedRequests === 1 ? 'request was' : 'requests were'} refused in this range (wrong secret, skewed clock,
                unknown server, too large, rate limited): whatever they carried is in none of these numbers.
              </span>
              <RowLink href={link('/servers')} data-testid="rejected-requests-notice-link">
                See why, per server →
              </RowLink>
            </div>
          )}

          <div className="tiles">
            {tiles(s, <IdleTime stats={s} receivedAt={stats.dataUpdatedAt} />).map((t) => (
              <Tile key={t.testId} {...t} href={sessionsLink(t.flag ? { flag: t.flag } : {})} />
            ))}
          </div>

          {s.events === 0 && s.sessions === 0 ? (
            <div className="panel">
              <Empty title="No events in this range">
                Nothing was reported {s.server ? `by ${s.server} ` : ''}between these times. Widen the range (z zooms out) or check that
                servers post to <code>/api/v1/ingest/&lt;server&gt;</code>.
              </Empty>
            </div>
          ) : null}

          <div className="grid grid-2">
            <Panel
              id="h-boundary"
              title={split === 'server' ? 'Boundary entries by server' : 'Boundary entries by answer'}
              aside={legendAndList(CHARTS.boundary)}
            >
              <div className="panel-body">
                {/* Measured for the shared axis: every chart on the page is this wide. */}
                <div ref={chartBox}>{chart(CHARTS.boundary, s.bucketMs)}</div>
              </div>
            </Panel>
            <Panel
              id="h-deadlocks"
              title={split === 'server' ? 'Deadlocks by server' : 'Deadlocks & dual negotiations'}
              aside={legendAndList(CHARTS.deadlocks)}
            >
              <div className="panel-body">
                {chart(CHARTS.deadlocks, s.bucketMs)}
                <div className="small muted">
                  Total idle time in deadlocks: <strong className="num">{fmtDuration(s.deadlocks.idleMs)}</strong> (ended + ongoing,
                  threshold {fmtDuration(s.deadlockThresholdMs)})
                </div>
              </div>
            </Panel>
          </div>

          <div className="grid grid-2">
            <Panel
              id="h-refusal"
              title="Refusal latency"
              aside={
                <>
                  resume.requested → resume.refused <RowLink href={sessionsLink({ flag: 'refused' })}>list →</RowLink>
                </>
              }
            >
              <div className="panel-body">
                <PctStrip
                  testId="refusal-percentiles"
                  items={[
                    ...(['p50', 'p95', 'p99', 'max'] as const).map((k): [string, string] => [k, fmtLatency(s.refusalLatencyMs[k])]),
                    ['count', fmtInt(s.refusalLatencyMs.count)],
                    ['percentiles', fmtPercentileMethod(s.percentiles.refusal)],
                  ]}
                />
                {s.refusalLatencyMs.count === 0 ? (
                  <Empty title="No refusals in this range" height={150}>
                    <span data-testid="refusal-latency-empty">
                      Doorwatch measures the refusal latency on the server: from a session&apos;s resume.requested to its resume.refused
                      (session-superseded), as the server timestamps them. The design note&apos;s &quot;~50 ms&quot; is how fast its
                      fault-injection runs failed once the server refused instead of leaving a 300 s deadlock; the note does not say where
                      it was measured, so it is not a target for this number.
                    </span>
                  </Empty>
                ) : (
                  <>
                    <HistogramChart
                      buckets={s.refusalLatencyHistogram}
                      height={130}
                      onClick={() => router.push(sessionsLink({ flag: 'refused' }))}
                    />
                    {chart(CHARTS.refusalLatency, s.bucketMs)}
                  </>
                )}
              </div>
            </Panel>
            <Panel
              id="h-reneg"
              title={split === 'server' ? 'Renegotiations by server' : 'Renegotiations'}
              aside={legendAndList(CHARTS.renegotiations)}
            >
              <div className="panel-body">
                <PctStrip
                  items={[
                    ['rate', fmtPct(s.renegotiations.rate, 2)],
                    ['p50', fmtLatency(s.renegotiations.latencyMs.p50)],
                    ['p95', fmtLatency(s.renegotiations.latencyMs.p95)],
                    ['max', fmtLatency(s.renegotiations.latencyMs.max)],
                    ['< 200 ms', s.renegotiations.count ? fmtPct(s.renegotiations.under200ms / s.renegotiations.count, 0) : '—'],
                    ['percentiles', fmtPercentileMethod(s.percentiles.renegotiation)],
                  ]}
                />
                {chart(CHARTS.renegotiations, s.bucketMs)}
                {s.renegotiations.count > 0 && chart(CHARTS.renegotiationLatency, s.bucketMs)}
              </div>
            </Panel>
          </div>
        </div>
      )}
    </div>
  );
}
