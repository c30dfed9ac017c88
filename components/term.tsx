// Plain words with a one-line explanation for a newcomer: shown on hover and on keyboard focus, and
// read by screen readers as the element's description (aria-describedby), not only in a title.
import { useId, type ReactNode } from 'react';

/** The explanation itself; `id` goes into the described element's aria-describedby. */
export function Tip({ id, children }: { id: string; children: ReactNode }) {
  return (
    <span role="tooltip" id={id} className="term-tip">
      {children}
    </span>
  );
}

/**
 * A focusable term (dotted underline) with its explanation. For a control that is focusable itself
 * (a link, a checkbox), use `className="term"` on its wrapper, a Tip, and aria-describedby on the control.
 */
export function Term({ hint, children, className, testId }: { hint: ReactNode; children: ReactNode; className?: string; testId?: string }) {
  const id = useId();
  return (
    <span className={`term ${className ?? ''}`} tabIndex={0} aria-describedby={id} data-testid={testId}>
      {children}
      <Tip id={id}>{hint}</Tip>
    </span>
  );
}
