// The markers of the time charts: annotations and first-reported versions placed on the bucket
// they fall in (the charts' x axis is a band per bucket start), or, on a session's timeline, at
// their exact time. Pure.
import type { TAnnotationListResponse } from '@/lib/contract/api/annotations';

export interface ChartMarker {
  /** Stable key. */
  key: string;
  kind: 'annotation' | 'version';
  /** The bucket start the marker is drawn at. */
  x: number;
  /** The exact time (epoch ms). */
  at: number;
  /** Short label on the chart. */
  label: string;
  /** The whole text, for the tooltip. */
  title: string;
}

const LABEL_MAX = 24;
const short = (s: string) => (s.length > LABEL_MAX ? `${s.slice(0, LABEL_MAX - 1)}…` : s);

/** The bucket start of `t` among ascending `starts` (each bucket `bucketMs` long), or null outside them. */
export function bucketOf(t: number, starts: readonly number[], bucketMs: number): number | null {
  if (starts.length === 0 || t < starts[0] || t >= starts[starts.length - 1] + bucketMs) return null;
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= t) lo = mid;
    else hi = mid - 1;
  }
  return starts[lo];
}

export function chartMarkers(answer: TAnnotationListResponse | undefined, starts: readonly number[], bucketMs: number): ChartMarker[] {
  return placeMarkers(answer, (at) => bucketOf(at, starts, bucketMs));
}

/** A session timeline's markers: x is the exact time, kept when it falls in [fromMs, toMs]. */
export function timeMarkers(answer: TAnnotationListResponse | undefined, fromMs: number, toMs: number): ChartMarker[] {
  return placeMarkers(answer, (at) => (at >= fromMs && at <= toMs ? at : null));
}

function placeMarkers(answer: TAnnotationListResponse | undefined, place: (at: number) => number | null): ChartMarker[] {
  if (!answer) return [];
  const out: ChartMarker[] = [];
  for (const a of answer.annotations) {
    const at = Date.parse(a.time);
    const x = place(at);
    if (x === null) continue;
    const tags = a.tags.length ? ` [${a.tags.join(', ')}]` : '';
    out.push({
      key: `a:${a.id}`,
      kind: 'annotation',
      x,
      at,
      label: short(a.text),
      title: `${a.text}${tags}${a.server ? ` — ${a.server}` : ''}`,
    });
  }
  for (const v of answer.versions) {
    const at = Date.parse(v.firstSeenAt);
    const x = place(at);
    if (x === null) continue;
    out.push({
      key: `v:${v.server}:${v.version}`,
      kind: 'version',
      x,
      at,
      label: short(v.version),
      title: `${v.server} first reported ${v.version}`,
    });
  }
  return out.sort((a, b) => a.at - b.at || (a.key < b.key ? -1 : 1));
}
