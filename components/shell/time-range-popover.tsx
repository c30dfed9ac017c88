'use client';
// The time-range picker's popover: an absolute range typed in the display zone (or relative, like
// now-6h), checked here as the server would, and the relative presets. It mounts when the picker
// opens, so it always starts from the range as it is now.
import { useEffect, useRef, useState } from 'react';
import { fmtDateTime, tzLabel } from '@/lib/ui/format';
import { isRelative } from '@/lib/time/instant';
import { freezeRange } from '@/lib/time/navigate';
import { RANGE_PRESETS, presetFor } from '@/lib/time/presets';
import { resolveTimeRange } from '@/lib/time/range';
import { TimeRangeError } from '@/lib/time/errors';
import { parseUserTime } from '@/lib/time/user-input';
import { useUrlState } from '@/lib/ui/url-state';

export function TimeRangePopover({ onClose }: { onClose: () => void }) {
  const { global, set } = useUrlState();
  const { from, to, tz } = global;
  const shown = (v: string) => (isRelative(v) ? v : fmtDateTime(v, tz));
  const [fromText, setFromText] = useState(() => shown(from));
  const [toText, setToText] = useState(() => shown(to));
  const [error, setError] = useState<string | null>(null);
  const firstRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const t = setTimeout(() => firstRef.current?.focus(), 0);
    return () => clearTimeout(t);
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
    onClose();
  };

  const preset = presetFor(from, to);
  return (
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
                  onClose();
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
                  onClose();
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
  );
}
