'use client';
// A clock that ticks in the browser, so ongoing durations ("deadlocked for 10.8 s") keep counting
// between refetches. Only components that show a running duration subscribe.
import { useEffect, useState } from 'react';

export function useNow(everyMs = 1000, enabled = true): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!enabled) return;
    const id = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(id);
  }, [everyMs, enabled]);
  return now;
}
