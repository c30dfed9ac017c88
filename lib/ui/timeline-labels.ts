/**
 * Every piece of text on the session timeline, placed so that none prints over another: event
 * names (staggered, close ones gathered under "+N" chips: label-clusters.ts), the notes under
 * them (the door, the boundary entry, its answer), the gaps between evenly spaced events, the
 * bracket's caption, "now", the disagreement marks and the axis ends. The chart draws exactly
 * these boxes, so the property tests over `textBoxes` hold for the page too.
 *
 * Pure: widths come from `measure` (the browser's text metrics in the chart, an estimate here).
 */
import { clusterLabels, type Cluster } from './label-clusters';
import { estimateWidth, layoutLabels, type MeasureText } from './label-layout';

/** Vertical geometry of the chart (px from the top of the svg). */
export const GEOMETRY = {
  height: 266,
  /** Event names: baseline of row 0; rows stack upwards. */
  nameY: 64,
  nameRows: 3,
  /** One more row on top that only "+N" chips use, so a chip finds room beside crowded names. */
  chipRows: 4,
  rowH: 16,
  nameFont: 11.5,
  /** "+N" chips in the name rows: height, and top relative to a row's baseline. */
  chipH: 14,
  chipTop: -11,
  chipFont: 10,
  /** Notes under the names: baseline of row 0; rows stack downwards. */
  noteY: 78,
  noteRows: 3,
  noteRowH: 13,
  noteFont: 10,
  server: 134,
  client: 180,
  laneH: 14,
  /** Dots sit above the server lane. */
  dotY: 117,
  markY: 161,
  markFont: 13,
  bracketY: 202,
  bracketTextY: 220,
  gapY: 238,
  axisLineY: 246,
  axisTextY: 260,
  smallFont: 11,
} as const;

/** Generous font extents around the baseline (system sans-serif fonts), as fractions of the size. */
const ASCENT = 0.95;
const DESCENT = 0.27;

export interface PlanEvent {
  /** Anchor on the axis (px). */
  x: number;
  /** Inside the zoom window: only these get a name, a note or a mark. */
  visible: boolean;
  name: string;
  /** The door, the boundary entry, its answer: placed first, bold. */
  important: boolean;
  note: string | null;
  /** Client and server start to disagree after this event (≠). */
  mark: boolean;
}

export interface PlanInput {
  width: number;
  left: number;
  right: number;
  events: readonly PlanEvent[];
  /** Gaps between evenly spaced neighbours ("+48 ms"), at the midpoint. */
  gaps: readonly { x: number; text: string }[];
  /** The deadlock or refusal bracket, already cut to the plot. */
  bracket: { x1: number; x2: number; text: string } | null;
  /** The end of an ongoing deadlock, when in view. */
  nowX: number | null;
  axis: { start: string; end: string };
}

export interface PlacedText {
  text: string;
  /** Left edge (drawn with text-anchor start). */
  x: number;
  /** Baseline. */
  y: number;
  width: number;
  fontSize: number;
  bold: boolean;
}

export interface PlacedChip extends Cluster {
  text: string;
  /** Top of the chip (px). */
  y: number;
  width: number;
  height: number;
}

export interface TimelinePlan {
  names: (PlacedText | null)[];
  chips: PlacedChip[];
  notes: (PlacedText | null)[];
  marks: (PlacedText | null)[];
  gaps: (PlacedText | null)[];
  bracket: PlacedText | null;
  now: PlacedText | null;
  axisStart: PlacedText;
  axisEnd: PlacedText;
}

const EDGE = 4;

export function chipText(n: number): string {
  return `+${n}`;
}

export function planTimelineLabels(input: PlanInput, measure: MeasureText = estimateWidth): TimelinePlan {
  const G = GEOMETRY;
  const { width, left, right, events } = input;
  const minX = EDGE;
  const maxX = width - EDGE;
  const shown = events.map((_, i) => i).filter((i) => events[i].visible);
  const text = (t: string, x: number, y: number, px: number, bold: boolean, w = measure(t, px, bold)): PlacedText => ({
    text: t,
    x,
    y,
    width: w,
    fontSize: px,
    bold,
  });

  // Names and chips.
  const chipWidth = (n: number) => measure(chipText(n), G.chipFont, true) + 12;
  const layout = clusterLabels(
    shown.map((i) => ({ x: events[i].x, width: measure(events[i].name, G.nameFont, events[i].important), important: events[i].important })),
    { rows: G.nameRows, chipRows: G.chipRows, gap: 6, minX, maxX, chipWidth },
  );
  const names: (PlacedText | null)[] = events.map(() => null);
  layout.labels.forEach((b, k) => {
    if (!b) return;
    const e = events[shown[k]];
    names[shown[k]] = text(e.name, b.from, G.nameY - b.row * G.rowH, G.nameFont, e.important, b.to - b.from);
  });
  const chips: PlacedChip[] = layout.clusters.map((c) => ({
    ...c,
    members: c.members.map((k) => shown[k]),
    text: chipText(c.members.length),
    y: G.nameY - c.row * G.rowH + G.chipTop,
    width: c.to - c.from,
    height: G.chipH,
  }));

  // Notes: their own band of rows under the names.
  const noted = shown.filter((i) => events[i].note !== null);
  const notes: (PlacedText | null)[] = events.map(() => null);
  layoutLabels(
    noted.map((i) => ({ x: events[i].x, text: events[i].note!, fontSize: G.noteFont, important: true, bold: true })),
    { rows: G.noteRows, gap: 6, minX, maxX },
    measure,
  ).forEach((p, k) => {
    if (p.row >= 0) notes[noted[k]] = text(events[noted[k]].note!, p.from, G.noteY + p.row * G.noteRowH, G.noteFont, true, p.to - p.from);
  });

  // Disagreement marks: one row between the lanes, a mark that would touch another left out.
  const marked = shown.filter((i) => events[i].mark);
  const marks: (PlacedText | null)[] = events.map(() => null);
  layoutLabels(
    marked.map((i) => ({ x: events[i].x + 4, text: '≠', fontSize: G.markFont, bold: true, anchor: 'start' as const })),
    { rows: 1, gap: 2, minX: left, maxX: right + 12 },
    measure,
  ).forEach((p, k) => {
    if (p.row >= 0) marks[marked[k]] = text('≠', p.from, G.markY, G.markFont, true, p.to - p.from);
  });

  // The bracket's caption, centred on what is visible of it.
  const bracket = input.bracket
    ? (() => {
        const w = measure(input.bracket.text, G.smallFont, true);
        const from = Math.max(minX, Math.min((input.bracket.x1 + input.bracket.x2) / 2 - w / 2, maxX - w));
        return text(input.bracket.text, from, G.bracketTextY, G.smallFont, true, w);
      })()
    : null;

  // "now" (ending at its x) and the gaps share a row: "now" first, the gaps where they fit.
  const gapItems = [
    ...(input.nowX !== null ? [{ x: input.nowX, text: 'now', fontSize: G.smallFont, important: true, anchor: 'end' as const }] : []),
    ...input.gaps.map((g) => ({ x: g.x, text: g.text, fontSize: G.noteFont })),
  ];
  const gapPlaced = layoutLabels(gapItems, { rows: 1, gap: 4, minX: left, maxX: Math.max(left, right) }, measure);
  const now = input.nowX !== null && gapPlaced[0].row >= 0 ? text('now', gapPlaced[0].from, G.gapY, G.smallFont, false) : null;
  const offset = input.nowX !== null ? 1 : 0;
  const gaps = input.gaps.map((g, k) => {
    const p = gapPlaced[k + offset];
    return p.row >= 0 ? text(g.text, p.from, G.gapY, G.noteFont, false, p.to - p.from) : null;
  });

  // Axis ends: the window's first and last moment.
  const startW = measure(input.axis.start, G.smallFont, false);
  const endW = measure(input.axis.end, G.smallFont, false);
  const axisStart = text(input.axis.start, Math.max(minX, left), G.axisTextY, G.smallFont, false, startW);
  const axisEnd = text(
    input.axis.end,
    Math.max(axisStart.x + startW + 8, Math.min(right, maxX) - endW),
    G.axisTextY,
    G.smallFont,
    false,
    endW,
  );

  return { names, chips, notes, marks, gaps, bracket, now, axisStart, axisEnd };
}

export interface TextBox {
  kind: 'name' | 'chip' | 'note' | 'mark' | 'gap' | 'bracket' | 'now' | 'axis';
  text: string;
  l: number;
  r: number;
  t: number;
  b: number;
}

/** Every box the plan puts on the chart (text extents from the font size). */
export function textBoxes(plan: TimelinePlan): TextBox[] {
  const out: TextBox[] = [];
  const add = (kind: TextBox['kind'], p: PlacedText | null) => {
    if (p) out.push({ kind, text: p.text, l: p.x, r: p.x + p.width, t: p.y - p.fontSize * ASCENT, b: p.y + p.fontSize * DESCENT });
  };
  plan.names.forEach((p) => add('name', p));
  for (const c of plan.chips) out.push({ kind: 'chip', text: c.text, l: c.from, r: c.to, t: c.y, b: c.y + c.height });
  plan.notes.forEach((p) => add('note', p));
  plan.marks.forEach((p) => add('mark', p));
  plan.gaps.forEach((p) => add('gap', p));
  add('bracket', plan.bracket);
  add('now', plan.now);
  add('axis', plan.axisStart);
  add('axis', plan.axisEnd);
  return out;
}
