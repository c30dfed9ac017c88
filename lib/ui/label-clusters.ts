/**
 * Event names along the timeline's axis, staggered over a few rows, and where even that does not
 * make room, close events gathered under one "+N" chip that expands to list them. Every event is
 * accounted for (its own label or a chip's member) and no two boxes in a row come closer than
 * `gap`: the guarantee the property tests in tests/unit/label-clusters.test.ts check.
 *
 * Pure: widths come in with the items (the chart measures them with the browser's text metrics).
 */

export interface ClusterItem {
  /** Anchor on the axis (px): the label is centred on it where it can be. */
  x: number;
  /** The label's width (px). */
  width: number;
  /** The door, the boundary entry and its answer: placed first, gathered last. */
  important?: boolean;
}

export interface Box {
  /** Row, 0 nearest the axis. */
  row: number;
  from: number;
  to: number;
}

export interface Cluster extends Box {
  /** Indices of the items it holds, in axis order. */
  members: number[];
  /** Where the chip points: the middle of its members' anchors. */
  x: number;
}

export interface ClusterLayout {
  /** Per item: its own label's box, or null when a chip holds it. */
  labels: (Box | null)[];
  clusters: Cluster[];
}

export interface ClusterOptions {
  /** Rows for names. */
  rows: number;
  /** Rows chips may use (at least `rows`): a row above the names kept for chips. */
  chipRows?: number;
  gap: number;
  minX: number;
  maxX: number;
  /** The width of a chip holding n items ("+n"). */
  chipWidth: (n: number) => number;
  /** Unlabelled items closer than this (px) share a chip from the start. */
  join?: number;
  /** The widest stretch (px) of events that start out under one chip. */
  maxSpan?: number;
  /** How far (px) a chip may slide from its members to find room. */
  slide?: number;
}

/** A box of width w centred on x, kept inside [minX, maxX]. */
function centred(x: number, w: number, minX: number, maxX: number): [number, number] {
  const from = Math.max(minX, Math.min(x - w / 2, maxX - w));
  return [from, from + w];
}

type Placed = { kind: 'label'; item: number; box: Box } | { kind: 'chip'; cluster: Draft; box: Box };
interface Draft {
  members: number[];
}

/** Neighbours along the axis, in chips: a chip stands for a stretch an operator can point at, so neighbours chain only so far. */
function chain(unplaced: number[], items: readonly ClusterItem[], join: number, maxSpan: number): Draft[] {
  unplaced.sort((a, b) => items[a].x - items[b].x || a - b);
  const queue: Draft[] = [];
  for (const i of unplaced) {
    const last = queue[queue.length - 1];
    if (last && items[i].x - items[last.members[last.members.length - 1]].x <= join && items[i].x - items[last.members[0]].x <= maxSpan)
      last.members.push(i);
    else queue.push({ members: [i] });
  }
  return queue;
}

/** Takes `blockers` off the plot and gathers the events they held into the chip `d`, in axis order. */
function absorb(placed: Placed[], d: Draft, blockers: readonly Placed[], items: readonly ClusterItem[]): void {
  for (const b of blockers) {
    placed.splice(placed.indexOf(b), 1);
    if (b.kind === 'label') d.members.push(b.item);
    else d.members.push(...b.cluster.members);
  }
  d.members.sort((a, b) => items[a].x - items[b].x || a - b);
}

/**
 * Labels at the same x (events of the same millisecond) read top-down in the timeline's order:
 * rows stack upwards, so the earliest of them takes the highest of their rows (it was the lowest).
 * `clear(row, from, to, except)` says whether a box touches nothing placed but `except`.
 */
function stackInTimelineOrder(
  placed: Placed[],
  items: readonly ClusterItem[],
  clear: (row: number, from: number, to: number, except?: Placed) => boolean,
): void {
  const byX = new Map<number, Placed[]>();
  for (const p of placed) if (p.kind === 'label') byX.set(items[p.item].x, [...(byX.get(items[p.item].x) ?? []), p]);
  for (const group of byX.values()) {
    if (group.length < 2) continue;
    const rowsDown = group.map((p) => p.box.row).sort((a, b) => b - a);
    const inOrder = [...group].sort((a, b) => (a.kind === 'label' && b.kind === 'label' ? a.item - b.item : 0));
    const before = group.map((p) => p.box);
    inOrder.forEach((p, k) => (p.box = { ...p.box, row: rowsDown[k] }));
    // Rows of other widths may now touch a neighbour: keep the swap only where every label is clear.
    if (!group.every((p) => clear(p.box.row, p.box.from, p.box.to, p) && group.every((q) => q === p || q.box.row !== p.box.row)))
      group.forEach((p, k) => (p.box = before[k]));
  }
}

export function clusterLabels(items: readonly ClusterItem[], opts: ClusterOptions): ClusterLayout {
  const { rows, gap, minX, maxX, chipWidth, join = 24, maxSpan = 64, slide = 80 } = opts;
  const chipRows = Math.max(rows, opts.chipRows ?? rows);
  const placed: Placed[] = [];
  const clear = (row: number, from: number, to: number, except?: Placed) =>
    placed.every((p) => p === except || p.box.row !== row || to + gap <= p.box.from || from >= p.box.to + gap);
  const firstRow = (from: number, to: number, upTo = rows) => {
    for (let r = 0; r < upTo; r++) if (clear(r, from, to)) return r;
    return -1;
  };

  // 1. Labels: important first, then along the axis, each in the lowest row where it fits.
  const order = items
    .map((_, i) => i)
    .sort((a, b) => Number(!!items[b].important) - Number(!!items[a].important) || items[a].x - items[b].x || a - b);
  const unplaced: number[] = [];
  for (const i of order) {
    const it = items[i];
    const [from, to] = centred(it.x, it.width, minX, maxX);
    const row = it.width <= maxX - minX ? firstRow(from, to) : -1;
    if (row < 0) unplaced.push(i);
    else placed.push({ kind: 'label', item: i, box: { row, from, to } });
  }

  stackInTimelineOrder(placed, items, clear);

  // 2. What is left: neighbours along the axis share a chip.
  const queue = chain(unplaced, items, join, maxSpan);

  /**
   * Where a chip wanted at [from, to] can go: there, in the lowest free row; else slid beside
   * something in its way, at most `slide` px from its events, the nearest spot first. A chip beside the door's name
   * beats one that pushes the door's name into a chip.
   */
  const freeSpot = (d: Draft, from: number, to: number, reach = slide): Box | null => {
    const w = to - from;
    const row = firstRow(from, to, chipRows);
    if (row >= 0) return { row, from, to };
    // Within `reach` px of the stretch its events occupy.
    const xs = d.members.map((i) => items[i].x);
    const [lo, hi] = [Math.min(...xs), Math.max(...xs)];
    const near = (f: number) => Math.max(0, lo - (f + w), f - hi) <= reach;
    const candidates: Box[] = [];
    for (const p of placed)
      for (const f of [p.box.from - gap - w, p.box.to + gap])
        if (f >= minX && f + w <= maxX && near(f)) candidates.push({ row: p.box.row, from: f, to: f + w });
    candidates.sort((a, b) => Math.abs(a.from - from) - Math.abs(b.from - from) || a.row - b.row);
    return candidates.find((c) => clear(c.row, c.from, c.to)) ?? null;
  };

  const anchorOf = (d: Draft) => {
    const xs = d.members.map((i) => items[i].x);
    return (Math.min(...xs) + Math.max(...xs)) / 2;
  };
  const chipBox = (d: Draft): [number, number] => centred(anchorOf(d), chipWidth(d.members.length), minX, maxX);

  // 3. Each chip takes the lowest free row, or a free spot close by; where there is none it takes
  // over the row that costs least (labels and chips in its way join it; important labels only when nothing else will do)
  // and tries again. Every retry removes something placed, so this ends; with nothing left in the
  // way a chip fits whenever one chip fits the plot at all.
  while (queue.length) {
    const d = queue.shift()!;
    const [from, to] = chipBox(d);
    const spot = freeSpot(d, from, to);
    if (spot) {
      placed.push({ kind: 'chip', cluster: d, box: spot });
      continue;
    }
    let best: { cost: number; blockers: Placed[] } | null = null;
    for (let r = 0; r < chipRows; r++) {
      const blockers = placed.filter((p) => p.box.row === r && !(to + gap <= p.box.from || from >= p.box.to + gap));
      const cost = blockers.reduce((c, p) => c + (p.kind === 'label' && items[p.item].important ? 100 : 1), 0);
      if (!best || cost < best.cost) best = { cost, blockers };
    }
    if (!best || best.blockers.length === 0) continue; // wider than the plot: nowhere to go
    if (best.cost >= 100) {
      // Only important names in the way: rather than hide one, join the nearest other chip (placed
      // or still queued), or failing that sit wherever there is room.
      const stretch = (m: number[]) => [items[m[0]].x, items[m[m.length - 1]].x];
      const [lo, hi] = stretch(d.members);
      const dist = (m: number[]) => {
        const [a, b] = stretch(m);
        return Math.max(0, a - hi, lo - b);
      };
      const chips = placed.filter((p): p is Extract<Placed, { kind: 'chip' }> => p.kind === 'chip');
      const other = [
        ...chips.map((p) => ({ members: p.cluster.members, take: () => placed.splice(placed.indexOf(p), 1) })),
        ...queue.map((q) => ({ members: q.members, take: () => queue.splice(queue.indexOf(q), 1) })),
      ].sort((a, b) => dist(a.members) - dist(b.members))[0];
      if (other) {
        other.take();
        d.members.push(...other.members);
        d.members.sort((a, b) => items[a].x - items[b].x || a - b);
        queue.unshift(d);
        continue;
      }
      const far = freeSpot(d, from, to, Infinity);
      if (far) {
        placed.push({ kind: 'chip', cluster: d, box: far });
        continue;
      }
      // No room anywhere: take the place of the ordinary names nearest its events instead.
      const w = to - from;
      let alt: { cost: number; dist: number; box: Box; blockers: Placed[] } | null = null;
      for (const p of placed) {
        if (p.kind !== 'label' || items[p.item].important) continue;
        const [f, t] = centred((p.box.from + p.box.to) / 2, w, minX, maxX);
        const blockers = placed.filter((q) => q.box.row === p.box.row && !(t + gap <= q.box.from || f >= q.box.to + gap));
        const cost = blockers.reduce((c, q) => c + (q.kind === 'label' && items[q.item].important ? 100 : 1), 0);
        const dist = Math.max(0, lo - t, f - hi);
        if (cost < 100 && (!alt || cost < alt.cost || (cost === alt.cost && dist < alt.dist)))
          alt = { cost, dist, box: { row: p.box.row, from: f, to: t }, blockers };
      }
      if (alt) {
        absorb(placed, d, alt.blockers, items);
        // Its box keeps the width it was measured for only if the count's digits did not grow.
        const wNow = chipWidth(d.members.length);
        const [f, t] = centred((alt.box.from + alt.box.to) / 2, wNow, minX, maxX);
        if (wNow <= w || clear(alt.box.row, f, t)) {
          placed.push({ kind: 'chip', cluster: d, box: { row: alt.box.row, from: f, to: t } });
          continue;
        }
        queue.unshift(d);
        continue;
      }
    }
    absorb(placed, d, best.blockers, items);
    queue.unshift(d);
  }

  const labels: (Box | null)[] = items.map(() => null);
  const clusters: Cluster[] = [];
  for (const p of placed) {
    if (p.kind === 'label') labels[p.item] = p.box;
    else clusters.push({ ...p.box, members: p.cluster.members, x: anchorOf(p.cluster) });
  }
  clusters.sort((a, b) => a.x - b.x);
  return { labels, clusters };
}
