'use client';
// Text typed into a server-rendered input before the page hydrated fired no onChange (React 19
// stable does not replay it; only its experimental build does) and the next render writes the
// controlled value back over it: the text is lost with nothing on screen to say so. It is still in
// the DOM when the hydrating commit runs this, so it is handed over once, at mount, like typing.
// A slow network, or a navigation Next.js turns into a full page load, makes that window seconds.
import { useLayoutEffect, type RefObject } from 'react';

export function useTypedBeforeHydration(input: RefObject<HTMLInputElement | null>, value: string, typed: (text: string) => void): void {
  useLayoutEffect(() => {
    const text = input.current?.value;
    if (text !== undefined && text !== value) typed(text);
    // Once, at mount: later differences are React's own renders.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}
