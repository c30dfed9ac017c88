'use client';
// Events too close together to label are gathered under a "+N" chip; an open chip lists them (each
// selectable) and offers to zoom to them. The open chip is kept by the id of an event it holds,
// since chips regroup when the width changes.
import { useState } from 'react';
import type { TTimelineEvent } from '@/lib/contract/api/session-detail';
import { fmtTime, type TimeZoneMode } from '@/lib/ui/format';
import { windowAround, type ZoomWindow } from '@/lib/ui/timeline-axis';
import type { TimelineLayout } from './use-timeline-layout';

type Chip = TimelineLayout['plan']['chips'][number];

export function useOpenChip(layout: TimelineLayout, events: TTimelineEvent[]) {
  const [openChip, setOpenChip] = useState<string | null>(null);
  const { plan, ts, zoom, extent } = layout;
  const open = openChip === null ? null : (plan.chips.find((c) => c.members.some((i) => events[i].id === openChip)) ?? null);
  // Null when these events span the whole view already.
  const openZoom = open && windowAround(ts[open.members[0]], ts[open.members[open.members.length - 1]], zoom ?? extent);
  return { open, openZoom, setOpenChip };
}

export function ChipButtons({
  chips,
  events,
  num,
  open,
  setOpenChip,
}: {
  chips: Chip[];
  events: TTimelineEvent[];
  num: (i: number) => number;
  open: Chip | null;
  setOpenChip: (id: string | null) => void;
}) {
  return chips.map((c) => {
    const key = events[c.members[0]].id;
    const isOpen = open === c;
    const names = c.members.map((i) => `#${num(i)} ${events[i].type}`).join(', ');
    return (
      <button
        key={key}
        type="button"
        className={`tl-chip${isOpen ? ' open' : ''}`}
        style={{ left: c.from, top: c.y, width: c.width, height: c.height }}
        aria-expanded={isOpen}
        aria-controls={isOpen ? 'tl-cluster' : undefined}
        aria-label={`${c.members.length} more events: ${names}`}
        title={names}
        data-testid="timeline-chip"
        onClick={() => setOpenChip(isOpen ? null : key)}
      >
        {c.text}
      </button>
    );
  });
}

export function ClusterList({
  open,
  openZoom,
  events,
  ts,
  num,
  tz,
  selected,
  onSelect,
  onZoom,
  onClose,
}: {
  open: Chip;
  openZoom: ZoomWindow | null;
  events: TTimelineEvent[];
  ts: number[];
  num: (i: number) => number;
  tz: TimeZoneMode;
  selected: number | null;
  onSelect: (i: number) => void;
  onZoom: (z: ZoomWindow) => void;
  onClose: () => void;
}) {
  return (
    <div
      className="tl-cluster"
      id="tl-cluster"
      role="region"
      aria-label={`${open.members.length} events gathered under ${open.text}`}
      data-testid="cluster-list"
      onKeyDown={(ev) => {
        if (ev.key === 'Escape') onClose();
      }}
    >
      <span className="small muted">
        {open.members.length} events close together, {fmtTime(ts[open.members[0]], tz)} –{' '}
        {fmtTime(ts[open.members[open.members.length - 1]], tz)}:
      </span>
      {open.members.map((i) => (
        <button
          key={events[i].id}
          type="button"
          className={`btn btn-xs${selected === i ? ' active' : ''}`}
          data-testid="cluster-event"
          onClick={() => onSelect(i)}
        >
          <span className="muted">#{num(i)}</span> {events[i].type}
        </button>
      ))}
      {openZoom && (
        <button
          type="button"
          className="btn btn-xs"
          data-testid="cluster-zoom"
          onClick={() => {
            onClose();
            onZoom(openZoom);
          }}
        >
          Zoom to these
        </button>
      )}
    </div>
  );
}
