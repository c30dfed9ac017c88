import type { ReactNode } from 'react';

// A hyphen is a line-break opportunity: a narrow alarm broke "demo-us-1" into "demo-us-" and "1". Words
// with a hyphen (server names, tokens) are kept whole on one line; the spaces between words still wrap.
const HYPHENATED = /(\S+-\S+)/;

/** `text` with each hyphenated word in a span that does not break. */
export function keepWhole(text: string): ReactNode[] {
  return text.split(HYPHENATED).map((part, i) =>
    i % 2 === 1 ? (
      <span key={i} className="nowrap">
        {part}
      </span>
    ) : (
      part
    ),
  );
}
