'use client';
// What the timeline's colours and marks mean (shown in the timeline panel's header).
import { useEffectiveTheme } from '@/components/shell/theme';
import { PALETTES } from '@/lib/ui/palette';

export function SideLegend() {
  const theme = useEffectiveTheme();
  const pal = PALETTES[theme];
  const items: [string, string][] = [
    [pal.sse, 'SSE side'],
    [pal.ws, 'WebSocket side (past the door)'],
    [pal.burned, 'burned token'],
    [pal.drops, 'closed'],
  ];
  return (
    <div className="legend">
      {items.map(([c, l]) => (
        <span key={l}>
          <span className="swatch" style={{ background: c }} />
          {l}
        </span>
      ))}
      <span>
        <span style={{ color: pal.pendingText, fontWeight: 700 }}>┆</span> door = upgrade.accepted
      </span>
      <span>
        <span style={{ color: pal.deadlock, fontWeight: 700 }}>≠</span> client and server disagree
      </span>
    </div>
  );
}
