// The current time as React state, ticking every `everyMs`: render stays pure (no Date.now() in
// it) and texts relative to now ("last 15 minutes", "3 s ago") keep up by themselves.
import { useEffect, useState } from 'react';

export function useNow(everyMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
