'use client';
// A table too wide for its panel scrolls sideways inside it, and says so: a "n more columns →" cue
// over the head row's right end counts the columns not (wholly) in view and scrolls to them on a
// click. Without it a phone showed the first three columns of a list and nothing hinted at the rest.
import { useEffect, useRef, useState, type ReactNode } from 'react';

/** How many head cells end past the visible right edge of `wrap` (1 px of slack for rounding). */
function columnsPastRight(wrap: HTMLElement): number {
  const right = wrap.getBoundingClientRect().right;
  const head = wrap.querySelector('thead tr');
  if (!head) return 0;
  return [...head.children].filter((th) => th.getBoundingClientRect().right > right + 1).length;
}

export function TableScroll({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [hidden, setHidden] = useState(0);
  useEffect(() => {
    const wrap = ref.current;
    if (!wrap) return;
    const read = () => setHidden(columnsPastRight(wrap));
    read();
    const ro = new ResizeObserver(read);
    ro.observe(wrap);
    const table = wrap.querySelector('table');
    if (table) ro.observe(table);
    wrap.addEventListener('scroll', read, { passive: true });
    return () => {
      ro.disconnect();
      wrap.removeEventListener('scroll', read);
    };
  }, []);
  return (
    <div className="table-scroll">
      <div className="table-wrap" ref={ref}>
        {children}
      </div>
      {hidden > 0 && (
        <button
          type="button"
          className="table-more"
          data-testid="table-more"
          onClick={() => ref.current?.scrollBy({ left: ref.current.clientWidth * 0.8, behavior: 'smooth' })}
          title="This table is wider than the screen: scroll it sideways to see the rest"
        >
          {hidden} more column{hidden === 1 ? '' : 's'} →
        </button>
      )}
    </div>
  );
}
