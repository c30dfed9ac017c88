'use client';
import { useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useEffect, useRef } from 'react';
import { shiftRange, zoomOutRange } from '@/lib/time/navigate';
import { RANGE_PRESETS } from '@/lib/time/presets';
import { useUrlState } from '@/lib/ui/url-state';
import { cycleTheme } from './theme';

export const SHORTCUTS: { keys: string; what: string }[] = [
  { keys: '/', what: 'Focus token lookup' },
  { keys: '?', what: 'Show this help' },
  { keys: 'g o', what: 'Go to Overview' },
  { keys: 'g s', what: 'Go to Sessions' },
  { keys: 'g v', what: 'Go to Servers' },
  { keys: 'g d', what: 'Go to Dead letters' },
  { keys: 'g a', what: 'Go to Alerts' },
  { keys: 'g ,', what: 'Go to Settings' },
  { keys: 't', what: 'Open the time range picker' },
  { keys: '1 – 4', what: 'Last 15 m / 1 h / 24 h / 7 d' },
  { keys: '[  ]', what: 'Shift the range earlier / later' },
  { keys: 'z', what: 'Zoom out (twice as wide)' },
  { keys: 'r', what: 'Refresh now' },
  { keys: 'u', what: 'Toggle UTC / local time' },
  { keys: 'd', what: 'Toggle dark / light theme' },
  { keys: 'Esc', what: 'Close dialogs, leave a field' },
];

function typingIn(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el) return false;
  const tag = el.tagName;
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || el.isContentEditable;
}

export function useShortcuts(onHelp: () => void) {
  const { global, set, link } = useUrlState();
  const router = useRouter();
  const qc = useQueryClient();
  const pendingG = useRef<number | null>(null);
  const state = useRef({ global, set, link });
  useEffect(() => {
    state.current = { global, set, link };
  });

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && typingIn(e.target)) {
        (e.target as HTMLElement).blur();
        return;
      }
      if (e.ctrlKey || e.metaKey || e.altKey || typingIn(e.target)) return;
      const { global: g, set: s, link: l } = state.current;
      if (pendingG.current !== null) {
        window.clearTimeout(pendingG.current);
        pendingG.current = null;
        const dest: Record<string, string> = { o: '/', s: '/sessions', v: '/servers', d: '/dead-letters', a: '/alerts', ',': '/settings' };
        if (dest[e.key]) {
          e.preventDefault();
          router.push(l(dest[e.key]));
        }
        return;
      }
      switch (e.key) {
        case '/': {
          e.preventDefault();
          const input = document.getElementById('token-lookup') as HTMLInputElement | null;
          input?.focus();
          input?.select();
          return;
        }
        case '?':
          e.preventDefault();
          onHelp();
          return;
        case 'g':
          pendingG.current = window.setTimeout(() => (pendingG.current = null), 1200);
          return;
        case 't':
          e.preventDefault();
          window.dispatchEvent(new Event('doorwatch-open-time-picker'));
          return;
        case '[':
          s({ ...shiftRange(g.from, g.to, -0.5, Date.now()), cursor: null });
          return;
        case ']':
          s({ ...shiftRange(g.from, g.to, 0.5, Date.now()), cursor: null });
          return;
        case 'z':
          s({ ...zoomOutRange(g.from, g.to, 2, Date.now()), cursor: null });
          return;
        case 'r':
          void qc.invalidateQueries();
          return;
        case 'u':
          s({ tz: g.tz === 'utc' ? null : 'utc' }, 'replace');
          return;
        case 'd':
          cycleTheme();
          return;
        default: {
          const preset = RANGE_PRESETS.find((p) => p.key === e.key);
          if (preset) s({ from: preset.from, to: preset.to, cursor: null });
        }
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onHelp, qc, router]);
}

export function HelpDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog ref={ref} className="dialog" onClose={onClose} aria-labelledby="help-title" data-testid="help-dialog">
      <div className="dialog-head">
        <h2 id="help-title">Keyboard shortcuts</h2>
        <button type="button" className="btn btn-ghost" onClick={onClose} aria-label="Close">
          ✕
        </button>
      </div>
      <table className="kbd-table">
        <tbody>
          {SHORTCUTS.map((s) => (
            <tr key={s.keys}>
              <td>
                {s.keys
                  .split(' ')
                  .filter(Boolean)
                  .map((k, i) =>
                    k === '–' ? (
                      <span key={i} className="muted" style={{ marginRight: 4 }}>
                        to
                      </span>
                    ) : (
                      <kbd key={i}>{k}</kbd>
                    ),
                  )}
              </td>
              <td>{s.what}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted small">
        Every view is in the address bar: copy it to share exactly what you see. “Freeze as absolute” in the time picker pins a relative
        range.
      </p>
    </dialog>
  );
}
