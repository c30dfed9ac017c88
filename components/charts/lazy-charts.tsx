'use client';
// The overview's charts without Recharts on the critical path: Recharts is most of the page's
// JavaScript and only draws what the tiles above already say in numbers, so the server's HTML and
// the first (hydrating) render hold a box of the chart's final size, and the chart replaces it once
// its chunk is in. The chunk starts downloading when this module loads, alongside hydration, not
// after it. The box carries no test id: whatever waits for a chart waits for the real one.
import { lazy, Suspense, type ComponentProps } from 'react';
import { useHydrating } from '@/lib/ui/use-now';
import type { HistogramChart as HistogramChartImpl } from './histogram-chart';
import type { SeriesChart as SeriesChartImpl } from './series-chart';

const seriesModule = () => import('./series-chart');
const histogramModule = () => import('./histogram-chart');
if (typeof window !== 'undefined') {
  void seriesModule();
  void histogramModule();
}

const LazySeries = lazy(() => seriesModule().then((m) => ({ default: m.SeriesChart })));
const LazyHistogram = lazy(() => histogramModule().then((m) => ({ default: m.HistogramChart })));

/** The chart's final size, saying what is coming (the figures above already hold its numbers). */
function ChartBox({ height, label }: { height: number; label: string }) {
  return (
    <div className="chart chart-pending" style={{ height }} role="img" aria-label={label} aria-busy="true">
      <span className="chart-pending-text">Drawing the chart: {label}…</span>
    </div>
  );
}

export function SeriesChart(props: ComponentProps<typeof SeriesChartImpl>) {
  const box = <ChartBox height={props.height ?? 200} label={props.ariaLabel} />;
  if (useHydrating()) return box;
  return (
    <Suspense fallback={box}>
      <LazySeries {...props} />
    </Suspense>
  );
}

export function HistogramChart(props: ComponentProps<typeof HistogramChartImpl>) {
  const box = <ChartBox height={props.height ?? 170} label="Refusal latency histogram" />;
  if (useHydrating()) return box;
  return (
    <Suspense fallback={box}>
      <LazyHistogram {...props} />
    </Suspense>
  );
}
