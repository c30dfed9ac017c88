'use client';
import { useEffect } from 'react';

/** Which ends of a row that scrolls sideways hide part of it: each such end is faded to say there is more. */
export type HiddenEdges = 'none' | 'start' | 'end' | 'both';

/** From the row's scroll position; a pixel of slack, as scroll positions are fractional when zoomed. */
export function hiddenEdges(scrollLeft: number, clientWidth: number, scrollWidth: number): HiddenEdges {
  const start = scrollLeft > 1;
  const end = scrollLeft + clientWidth < scrollWidth - 1;
  return start && end ? 'both' : start ? 'start' : end ? 'end' : 'none';
}

/**
 * Keeps `data-hidden-edges` on the top bar's section row (app/globals.css fades those ends on a phone).
 * Read again when the row scrolls, the window resizes, or `key` changes (the page, or the sections an
 * operator's role shows). Without it (before hydration) the row is at its start: the CSS fades its end.
 */
export function useNavEdges(key: string) {
  useEffect(() => {
    const nav = document.querySelector<HTMLElement>('header.topbar .nav');
    if (!nav) return;
    const mark = () => {
      nav.dataset.hiddenEdges = hiddenEdges(nav.scrollLeft, nav.clientWidth, nav.scrollWidth);
    };
    mark();
    nav.addEventListener('scroll', mark, { passive: true });
    window.addEventListener('resize', mark);
    return () => {
      nav.removeEventListener('scroll', mark);
      window.removeEventListener('resize', mark);
    };
  }, [key]);
}
