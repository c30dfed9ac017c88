'use client';
// The overview's charts without Recharts on the critical path: Recharts is most of the page's
// JavaScript, so the server's HTML and the first (hydrating) render hold the chart drawn as plain
// SVG from the same data (static-chart.tsx), and the interactive chart is laid over it once its
// chunk is in. The chunk starts downloading when this module loads, alongside hydration, not after
// it. The drawn frame stays under the interactive chart until that one's SVG is in the page
// (globals.css hides it then, `.chart-layers:has(.recharts-surface)`): Recharts measures its box
// after mounting, and the frames in between would otherwise be blank. If the chunk cannot load, the
// drawn chart stays (and the page with it). The frame carries no test id:
// whatever waits for a chart by its test id waits for the interactive one.
import { lazy, Suspense, type ComponentProps, type ReactNode } from 'react';
import { useHydrating } from '@/lib/ui/use-now';
import type { HistogramChart as HistogramChartImpl } from './histogram-chart';
import type { SeriesChart as SeriesChartImpl } from './series-chart';
import { StaticHistogramChart, StaticSeriesChart } from './static-chart';

const seriesModule = () => import('./series-chart');
const histogramModule = () => import('./histogram-chart');
if (typeof window !== 'undefined') {
  // Started now; a failure is answered where the chart is rendered (below).
  seriesModule().catch(() => {});
  histogramModule().catch(() => {});
}

/** What is laid over the drawn chart when the interactive one's chunk cannot load (offline, a deploy replaced it): nothing. */
const nothing = { default: () => null };
const LazySeries = lazy<(props: ComponentProps<typeof SeriesChartImpl>) => ReactNode>(() =>
  seriesModule().then(
    (m) => ({ default: m.SeriesChart }),
    () => nothing,
  ),
);
const LazyHistogram = lazy<(props: ComponentProps<typeof HistogramChartImpl>) => ReactNode>(() =>
  histogramModule().then(
    (m) => ({ default: m.HistogramChart }),
    () => nothing,
  ),
);

export function SeriesChart(props: ComponentProps<typeof SeriesChartImpl>) {
  const hydrating = useHydrating();
  return (
    <div className="chart-layers">
      <StaticSeriesChart {...props} />
      {!hydrating && (
        <Suspense fallback={null}>
          <LazySeries {...props} />
        </Suspense>
      )}
    </div>
  );
}

export function HistogramChart(props: ComponentProps<typeof HistogramChartImpl>) {
  const hydrating = useHydrating();
  return (
    <div className="chart-layers">
      <StaticHistogramChart buckets={props.buckets} height={props.height} />
      {!hydrating && (
        <Suspense fallback={null}>
          <LazyHistogram {...props} />
        </Suspense>
      )}
    </div>
  );
}
