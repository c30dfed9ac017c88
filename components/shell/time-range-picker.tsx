'use client';
// The top bar's time range: earlier, later, zoom out, and the popover (t) to type or pick a range.
import { useEffect, useRef, useState } from 'react';
import { fmtDateTime } from '@/lib/ui/format';
import { describeRange, withoutYear } from '@/lib/time/describe';
import { useNow } from '@/lib/ui/use-now';
import { shiftRange, zoomOutRange } from '@/lib/time/navigate';
import { useUrlState } from '@/lib/ui/url-state';
import { TimeRangePopover } from './time-range-popover';

export function TimeRangePicker() {
  const now = useNow(30_000);
  const { global, set } = useUrlState();
  const { from, to, tz } = global;
  const [open, setOpen] = useState(false);
  const boxRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (boxRef.current && !boxRef.current.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  useEffect(() => {
    const onOpen = () => setOpen(true);
    window.addEventListener('doorwatch-open-time-picker', onOpen);
    return () => window.removeEventListener('doorwatch-open-time-picker', onOpen);
  }, []);

  const fullLabel = describeRange(from, to, (ms) => fmtDateTime(ms, tz).slice(0, 16), now);
  // The button drops this year's "2026-" so the top bar stays one row; the title has it whole.
  const label = withoutYear(fullLabel, fmtDateTime(now, tz).slice(0, 4));

  return (
    <div className="trp" ref={boxRef}>
      <button
        type="button"
        className="btn btn-ghost btn-icon"
        title="Earlier ( [ )"
        aria-label="Shift range earlier"
        onClick={() => set({ ...shiftRange(from, to, -0.5, Date.now()), cursor: null })}
      >
        ‹
      </button>
      <button
        type="button"
        className="btn trp-button"
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
        data-testid="time-range-button"
        title={`${fullLabel} (t: change the time range)`}
      >
        <span aria-hidden="true" className="trp-clock">
          ◷
        </span>{' '}
        <span className="trp-label">{label}</span>
      </button>
      <button
        type="button"
        className="btn btn-ghost btn-icon"
        title="Later ( ] )"
        aria-label="Shift range later"
        onClick={() => set({ ...shiftRange(from, to, 0.5, Date.now()), cursor: null })}
      >
        ›
      </button>
      <button
        type="button"
        className="btn btn-ghost btn-icon"
        title="Zoom out (z)"
        aria-label="Zoom out"
        onClick={() => set({ ...zoomOutRange(from, to, 2, Date.now()), cursor: null })}
      >
        ⊖
      </button>
      {open && <TimeRangePopover onClose={() => setOpen(false)} />}
    </div>
  );
}
