import type { ReactNode } from 'react';
import { TableScroll } from './table-scroll';

/** A titled panel: `<section class="panel">` labelled by its `<h2>`, with an optional aside in the head. */
export function Panel({ id, title, aside, children }: { id: string; title: ReactNode; aside?: ReactNode; children: ReactNode }) {
  return (
    <section className="panel" aria-labelledby={id}>
      <div className="panel-head">
        {/* The whole title on hover when a narrow panel ellipsizes it. */}
        <h2 id={id} title={typeof title === 'string' ? title : undefined}>
          {title}
        </h2>
        {aside != null && aside !== false && <span className="aside">{aside}</span>}
      </div>
      {children}
    </section>
  );
}

/** A data table that scrolls sideways with a cue when too wide: the head row's cells go in `head`, the body rows are the children. */
export function DataTable({
  testId,
  className,
  head,
  children,
}: {
  testId: string;
  className?: string;
  head: ReactNode;
  children: ReactNode;
}) {
  return (
    <TableScroll>
      <table className={className ? `data ${className}` : 'data'} data-testid={testId}>
        <thead>
          <tr>{head}</tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </TableScroll>
  );
}

/** A small danger button that asks before it acts. */
export function ConfirmButton({ label, question, onConfirm }: { label: string; question: string; onConfirm: () => void }) {
  return (
    <button
      type="button"
      className="btn btn-xs btn-danger"
      onClick={() => {
        if (window.confirm(question)) onConfirm();
      }}
    >
      {label}
    </button>
  );
}
