// The current time as React state, ticking every `everyMs`: render stays pure (no Date.now() in
// it) and texts relative to now ("last 15 minutes", "3 s ago") keep up by themselves.
// The server's first render and the browser's hydration of it read the same instant (the server's
// render time, handed over by <Providers>), so "idle 2 m 03 s" is the same text on both sides
// (a differing text would make React discard the server's HTML); the clock ticks from mount.
import { createContext, useContext, useEffect, useState, useSyncExternalStore } from 'react';

/** Epoch ms at which the server rendered the page (null outside a server-rendered tree). */
export const RenderTimeContext = createContext<number | null>(null);

const subscribeNothing = () => () => {};

/** True on the server and while the browser hydrates the server's HTML, false afterwards. */
export function useHydrating(): boolean {
  return useSyncExternalStore(
    subscribeNothing,
    () => false,
    () => true,
  );
}

export function useNow(everyMs = 1000): number {
  const renderTime = useContext(RenderTimeContext);
  const hydrating = useHydrating();
  const [now, setNow] = useState(() => (hydrating && renderTime !== null ? renderTime : Date.now()));
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
