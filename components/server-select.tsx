'use client';
import { useMemo } from 'react';
import { useServers } from '@/lib/ui/queries';

/** The server filter of a list: every known server, and the current value even if it is not (yet) known. */
export function ServerSelect({
  id,
  value,
  onChange,
  testId,
}: {
  id: string;
  value: string;
  onChange: (server: string | null) => void;
  testId?: string;
}) {
  const servers = useServers('off');
  const names = useMemo(() => servers.data?.servers.map((s) => s.name) ?? [], [servers.data]);
  return (
    <div className="field">
      <label htmlFor={id}>Server</label>
      <select id={id} className="select" value={value} onChange={(e) => onChange(e.target.value || null)} data-testid={testId}>
        <option value="">All</option>
        {names.map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
        {value && !names.includes(value) && <option value={value}>{value}</option>}
      </select>
    </div>
  );
}
