import { FLAG_LABELS, STATE_LABELS, flagTone } from '@/lib/ui/format';

export function FlagChip({ flag }: { flag: string }) {
  const tone = flag === 'dual_negotiation' ? 'violet' : flagTone(flag);
  return (
    <span className={`chip ${tone === 'neutral' ? '' : tone}`} data-flag={flag}>
      {FLAG_LABELS[flag] ?? flag}
    </span>
  );
}

export function Flags({ flags }: { flags: readonly string[] }) {
  if (!flags.length) return <span className="faint">—</span>;
  return (
    <span className="chips">
      {flags.map((f) => (
        <FlagChip key={f} flag={f} />
      ))}
    </span>
  );
}

export function StateChip({ state }: { state: string }) {
  const tone = state === 'upgrade_pending' ? 'warn' : state === 'websocket_bound' ? 'good' : state === 'sse_active' ? 'accent' : '';
  return <span className={`chip ${tone}`}>{STATE_LABELS[state] ?? state}</span>;
}
