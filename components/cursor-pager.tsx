'use client';
import { useEffect, useRef, useState } from 'react';

/**
 * Pager for keyset-paginated lists: the cursor lives in the URL (so a link reproduces the page);
 * the cursors of earlier pages are remembered here for "Previous", and forgotten when the filter
 * (`filterKey`) changes.
 */
export function CursorPager({
  filterKey,
  cursor,
  nextCursor,
  shown,
  noun,
  limit,
  limits,
  defaultLimit,
  onLimit,
  onCursor,
}: {
  filterKey: string;
  cursor: string;
  nextCursor: string | null;
  shown: number;
  noun: [singular: string, plural: string];
  limit: number;
  limits: readonly number[];
  defaultLimit: number;
  onLimit: (limit: number | null) => void;
  onCursor: (cursor: string | null) => void;
}) {
  const [stack, setStack] = useState<string[]>([]);
  const lastKey = useRef(filterKey);
  useEffect(() => {
    if (lastKey.current !== filterKey) {
      lastKey.current = filterKey;
      setStack([]);
    }
  }, [filterKey]);
  const options = limits.includes(limit) ? limits : [...limits, limit].sort((a, b) => a - b);
  return (
    <div className="pager">
      <span className="small" data-testid="page-info">
        {shown} {shown === 1 ? noun[0] : noun[1]} on this page
        {stack.length || cursor ? ` · page ${stack.length + 1}${cursor && !stack.length ? '+' : ''}` : ''}
      </span>
      <span className="grow" />
      <label htmlFor="limit-select">Per page</label>
      <select
        id="limit-select"
        className="select"
        value={limit}
        onChange={(e) => onLimit(Number(e.target.value) === defaultLimit ? null : Number(e.target.value))}
      >
        {options.map((l) => (
          <option key={l} value={l}>
            {l}
          </option>
        ))}
      </select>
      <button
        type="button"
        className="btn btn-xs"
        disabled={!cursor}
        onClick={() => {
          setStack([]);
          onCursor(null);
        }}
      >
        ⇤ First
      </button>
      <button
        type="button"
        className="btn btn-xs"
        disabled={!cursor}
        onClick={() => {
          const prev = stack[stack.length - 1];
          setStack(stack.slice(0, -1));
          onCursor(prev || null);
        }}
      >
        ← Previous
      </button>
      <button
        type="button"
        className="btn btn-xs"
        disabled={!nextCursor}
        data-testid="next-page"
        onClick={() => {
          setStack([...stack, cursor]);
          onCursor(nextCursor);
        }}
      >
        Next →
      </button>
    </div>
  );
}
