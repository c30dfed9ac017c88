// What every part of the timeline shares: the chart's inputs, its horizontal room, the short names
// and colours of events and sides, and which events are the door, the boundary entry and its answer.
import type { TTimelineEvent } from '@/lib/contract/api/session-detail';
import type { TSessionView } from '@/lib/contract/api/sessions';
import type { TimeZoneMode } from '@/lib/ui/format';
import type { PALETTES } from '@/lib/ui/palette';
import type { Side, SideStep } from '@/lib/boundary/sides';
import type { Spacing, ZoomWindow } from '@/lib/ui/timeline-axis';
import type { ChartMarker } from '@/lib/ui/chart-markers';

export interface TimelineProps {
  events: TTimelineEvent[];
  sides: SideStep[];
  session: TSessionView;
  nowMs: number;
  tz: TimeZoneMode;
  spacing: Spacing;
  /** The zoom the URL asks for (not yet limited to this session). */
  zoom: ZoomWindow | null;
  onZoom: (z: ZoomWindow | null) => void;
  selected: number | null;
  onSelect: (i: number) => void;
  /** Annotations and first-reported versions in the session's span, at their exact time (x = ms). */
  markers?: readonly ChartMarker[];
}

export type Palette = (typeof PALETTES)['light'];

/** Room for the lane names: less on a phone, where every pixel of the plot counts. */
export const LEFT_WIDE = 92;
export const LEFT_NARROW = 58;
export const RIGHT = 28;

const SHORT: Record<string, string> = {
  'session.opened': 'opened',
  'stream.dropped': 'dropped',
  'session.timeout': 'timeout',
  'session.closed': 'closed',
};
export const shortName = (type: string) => SHORT[type] ?? type;

export function sideColor(side: Side, pal: Palette): string {
  return side === 'sse' ? pal.sse : side === 'ws' ? pal.ws : side === 'burned' ? pal.burned : pal.drops;
}

/** One numbering on the page: the table's # (the reporter's seq, else the row). */
export const eventNumber = (events: readonly TTimelineEvent[], i: number) => events[i].seq ?? i + 1;

/** The door, the boundary entry and the answer to it, as the boundary fold marks them. */
export function keyEvents(events: readonly TTimelineEvent[], sides: readonly SideStep[]) {
  const doorIdx = sides.findIndex((s) => s.door);
  const boundaryIdx = sides.findIndex((s) => s.boundaryEntry);
  const answerIdx = sides.findIndex((s) => s.naiveAnswer || s.refusedAnswer);
  // The resume at the door: the answer, else the entry, else the first resume after the door.
  const resumeIdx =
    answerIdx >= 0
      ? answerIdx
      : boundaryIdx >= 0
        ? boundaryIdx
        : events.findIndex((e, i) => i > doorIdx && doorIdx >= 0 && e.type.startsWith('resume.'));
  return { doorIdx, boundaryIdx, answerIdx, resumeIdx };
}
