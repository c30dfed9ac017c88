'use client';
// The session list's version filter: comma-separated versions (any of), applied after a short pause
// like the token search, so typing "v2.3.1" does not fetch "v", "v2", …
import { useEffect, useRef, useState } from 'react';

export function VersionFilter({ value, onChange }: { value: string; onChange: (v: string | null) => void }) {
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  const timer = useRef<number | null>(null);
  const change = (v: string) => {
    setText(v);
    if (timer.current) window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => onChange(v.replace(/\s+/g, '') || null), 300);
  };
  return (
    <div className="field">
      <label htmlFor="version-filter">Version</label>
      <input
        id="version-filter"
        className="input mono"
        style={{ width: 120 }}
        value={text}
        placeholder="any"
        title="Versions (builds) that served the session, comma-separated: any of"
        onChange={(e) => change(e.target.value)}
        spellCheck={false}
        autoComplete="off"
        data-testid="version-filter"
      />
    </div>
  );
}
