/**
 * Places text labels along one axis so none overlap: each label takes the first row (of a few)
 * where it clears its left neighbour; important labels are placed first so ordinary ones give way.
 * Labels that fit nowhere are hidden (their events stay as dots with a tooltip and in the table).
 * Widths come from `measure` (the browser's own text metrics in the timeline), or else a generous
 * estimate from the character count.
 */
export interface LabelItem {
  /** The anchor point on the axis (px). */
  x: number;
  text: string;
  fontSize: number;
  /** Placed before the others (the door, the boundary entry and its answer). */
  important?: boolean;
  bold?: boolean;
  /** Text anchored at x: centred (default), or starting / ending there. */
  anchor?: 'start' | 'middle' | 'end';
}

export interface PlacedLabel {
  /** Row (0 nearest the axis), or -1 when hidden. */
  row: number;
  /** Where to draw the label, possibly shifted to stay inside [minX, maxX]. */
  x: number;
  anchor: 'start' | 'middle' | 'end';
  /** The label's extent on the axis. */
  from: number;
  to: number;
}

/** A generous per-character width for the system sans-serif fonts (px per px of font size). */
const CHAR_EM = 0.62;

export function estimateWidth(text: string, fontSize: number, bold = false): number {
  return Math.ceil(text.length * fontSize * (bold ? CHAR_EM + 0.08 : CHAR_EM));
}

export type MeasureText = (text: string, fontSize: number, bold: boolean) => number;

export function layoutLabels(
  items: readonly LabelItem[],
  { rows, gap = 6, minX, maxX }: { rows: number; gap?: number; minX: number; maxX: number },
  measure: MeasureText = estimateWidth,
): PlacedLabel[] {
  const out: PlacedLabel[] = items.map((it) => {
    const w = measure(it.text, it.fontSize, !!it.bold);
    const anchor = it.anchor ?? 'middle';
    let from = anchor === 'start' ? it.x : anchor === 'end' ? it.x - w : it.x - w / 2;
    // Keep it inside the plot: shift, then say so by anchoring at the edge.
    from = Math.max(minX, Math.min(from, maxX - w));
    return { row: -1, x: from, anchor: 'start', from, to: from + w };
  });
  const taken: [number, number][][] = Array.from({ length: rows }, () => []);
  const fits = (row: number, from: number, to: number) => taken[row].every(([a, b]) => to + gap <= a || from >= b + gap);
  const order = items
    .map((it, i) => i)
    .sort((a, b) => Number(!!items[b].important) - Number(!!items[a].important) || items[a].x - items[b].x);
  for (const i of order) {
    const p = out[i];
    for (let r = 0; r < rows; r++)
      if (fits(r, p.from, p.to)) {
        taken[r].push([p.from, p.to]);
        p.row = r;
        break;
      }
  }
  return out;
}
