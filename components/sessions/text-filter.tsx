'use client';
// A list filter typed as text (the session list's token prefix and versions): the URL, and so the
// query, changes after a short pause, so typing "v2.3.1" does not fetch "v", "v2", … on the way.
import { useEffect, useRef, useState } from 'react';
import { useTypedBeforeHydration } from '@/lib/ui/use-typed-before-hydration';

const PAUSE_MS = 300;

export function TextFilter({
  id,
  label,
  value,
  onChange,
  width,
  placeholder,
  title,
}: {
  id: string;
  label: string;
  /** The value in the URL; typed text shows at once and is handed to onChange after the pause (null when empty). */
  value: string;
  onChange: (v: string | null) => void;
  width: number;
  placeholder: string;
  title?: string;
}) {
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  const input = useRef<HTMLInputElement>(null);
  const timer = useRef<number | null>(null);
  const change = (v: string) => {
    setText(v);
    if (timer.current) window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => onChange(v.trim() || null), PAUSE_MS);
  };
  useTypedBeforeHydration(input, value, change);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        ref={input}
        id={id}
        className="input mono"
        style={{ width }}
        value={text}
        placeholder={placeholder}
        title={title}
        onChange={(e) => change(e.target.value)}
        spellCheck={false}
        autoComplete="off"
        data-testid={id}
      />
    </div>
  );
}
