// One audit entry's change, field by field (lib/ui/audit-diff.ts): the value before, struck through,
// and the value after. Values are the API's, secrets already redacted ("[redacted]", a URL's origin
// and fingerprint); they are rendered as text, never as markup.
import { auditDiff, type DiffLine } from '@/lib/ui/audit-diff';
import { fmtDateTime, type TimeZoneMode } from '@/lib/ui/format';

/** Longer lists of fields start folded: the row stays a row. */
const OPEN_UP_TO = 6;

/** Stored instants in epoch ms (`createdAt`, `endsAt`): shown as times in the page's zone, the number on hover. */
const isEpochField = (path: string, value: unknown) => /At$/.test(path) && typeof value === 'number' && value > 1e11;

function Value({ path, value, tz }: { path: string; value: unknown; tz: TimeZoneMode }) {
  if (value === null || value === undefined) return <span className="audit-null">null</span>;
  if (isEpochField(path, value)) return <span title={String(value)}>{fmtDateTime(value as number, tz, true)}</span>;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return <span className={text.includes('[redacted]') ? 'audit-redacted' : undefined}>{text}</span>;
}

function Line({ line, tz }: { line: DiffLine; tz: TimeZoneMode }) {
  return (
    <li className={`audit-diff-line ${line.change}`} data-testid="audit-diff-line" data-path={line.path} data-change={line.change}>
      <span className="audit-diff-path">{line.path || 'value'}</span>{' '}
      {line.change !== 'added' && (
        <del className="audit-before" data-testid="audit-before">
          <Value path={line.path} value={line.before} tz={tz} />
        </del>
      )}
      {line.change === 'changed' && <span aria-hidden="true"> → </span>}
      {line.change !== 'removed' && (
        <ins className="audit-after" data-testid="audit-after">
          <Value path={line.path} value={line.after} tz={tz} />
        </ins>
      )}
    </li>
  );
}

export function AuditDiffView({ before, after, tz }: { before: unknown; after: unknown; tz: TimeZoneMode }) {
  const { lines, unchanged } = auditDiff(before, after);
  if (lines.length === 0) return <span className="small faint">no field changed</span>;
  const label = `${lines.length} field${lines.length === 1 ? '' : 's'}${unchanged ? ` changed, ${unchanged} unchanged` : ''}`;
  return (
    <details className="audit-diff" open={lines.length <= OPEN_UP_TO} data-testid="audit-diff">
      <summary className="small muted">{label}</summary>
      <ul className="mono small">
        {lines.map((l) => (
          <Line key={l.path} line={l} tz={tz} />
        ))}
      </ul>
    </details>
  );
}
