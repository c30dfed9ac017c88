'use client';
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { fmtDateTime, tzLabel } from '@/lib/ui/format';
import { describeRange, withoutYear } from '@/lib/time/describe';
import { useNow } from '@/lib/ui/use-now';
import { isRelative } from '@/lib/time/instant';
import { freezeRange, shiftRange, zoomOutRange } from '@/lib/time/navigate';
import { RANGE_PRESETS, presetFor } from '@/lib/time/presets';
import { resolveTimeRange } from '@/lib/time/range';
import { TimeRangeError } from '@/lib/time/errors';
import { parseUserTime } from '@/lib/time/user-input';
import { useUrlState } from '@/lib/ui/url-state';

export function TimeRangePicker() {
  const now = useNow(30_000);
  const { global, set } = useUrlState();
  const { from, to, tz } = global;
  const [open, setOpen] = useState(false);
  const [fromText, setFromText] = useState(from);
  const [toText, setToText] = useState(to);
  const [error, setError] = useState<string | null>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  const firstRef = useRef<HTMLInputElement>(null);

  const shown = (v: string) => (isRelative(v) ? v : fmtDateTime(v, tz));

  // Opening shows the range as it is now; an effect event reads the latest range without re-running the effect.
  const resetFields = useEffectEvent(() => {
    setFromText(shown(from));
    setToText(shown(to));
    setError(null);
  });

  useEffect(() => {
    if (!open) return;
    resetFields();
    const onDown = (e: MouseEvent) => {
      if (boxRef.current && !boxRef.current.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    setTimeout(() => firstRef.current?.focus(), 0);
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

  const apply = (e?: React.FormEvent) => {
    e?.preventDefault();
    const nowMs = Date.now();
    const f = parseUserTime(fromText, tz, nowMs);
    const t = parseUserTime(toText, tz, nowMs);
    if (!f) return setError(`“${fromText}” is not a time: use now-2h, now-1d/d, 2026-11-29 10:00 or an RFC 3339 instant`);
    if (!t) return setError(`“${toText}” is not a time: use now, 2026-11-29 11:00 or an RFC 3339 instant`);
    // The server's own checks (order, at most 400 days), answered here instead of as a failed fetch.
    try {
      resolveTimeRange(f, t, nowMs);
    } catch (err) {
      if (err instanceof TimeRangeError) return setError(err.message);
      throw err;
    }
    set({ from: f, to: t, cursor: null });
    setOpen(false);
  };

  const preset = presetFor(from, to);
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
      {open && (
        <div className="popover trp-pop" role="dialog" aria-label="Time range">
          <div className="trp-cols">
            <form className="trp-abs" onSubmit={apply}>
              <div className="trp-title">Absolute range</div>
              <label>
                From
                <input
                  ref={firstRef}
                  value={fromText}
                  onChange={(e) => setFromText(e.target.value)}
                  spellCheck={false}
                  name="from"
                  data-testid="range-from"
                />
              </label>
              <label>
                To
                <input value={toText} onChange={(e) => setToText(e.target.value)} spellCheck={false} name="to" data-testid="range-to" />
              </label>
              <div className="hint">Times in {tzLabel(tz)}; relative like now-6h or now-1d/d (rounded in UTC) also work.</div>
              {error && (
                <div className="form-error" role="alert">
                  {error}
                </div>
              )}
              <div className="row gap">
                <button type="submit" className="btn btn-primary" data-testid="range-apply">
                  Apply
                </button>
                {isRelative(from) && (
                  <button
                    type="button"
                    className="btn"
                    title="Replace the relative range with the absolute instants it means now, so a shared link shows the same data later"
                    onClick={() => {
                      set(freezeRange(from, to, Date.now()));
                      setOpen(false);
                    }}
                  >
                    Freeze as absolute
                  </button>
                )}
              </div>
            </form>
            <ul className="trp-presets" aria-label="Relative ranges">
              {RANGE_PRESETS.map((p) => (
                <li key={p.short}>
                  <button
                    type="button"
                    className={`preset ${preset?.from === p.from ? 'active' : ''}`}
                    onClick={() => {
                      set({ from: p.from, to: p.to, cursor: null });
                      setOpen(false);
                    }}
                    data-testid={`preset-${p.short}`}
                  >
                    {p.label}
                  </button>
                </li>
              ))}
            </ul>
          </div>
        </div>
      )}
    </div>
  );
}
