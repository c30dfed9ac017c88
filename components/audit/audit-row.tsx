// One audit entry as a table row; below 640 px a card whose cells carry their own labels.
import { RelTime } from '@/components/rel-time';
import type { TAuditEntry } from '@/lib/contract/api/audit';
import { entityName } from '@/lib/ui/audit-diff';
import { fmtDateTime, type TimeZoneMode } from '@/lib/ui/format';
import { AuditDiffView } from './audit-diff-view';
import { ACTION_TONE, ACTOR_KIND_WORDS, ENTITY_WORDS } from './audit-words';

export const AUDIT_COLUMNS = ['When', 'Who', 'Action', 'What', 'Change'] as const;

export function AuditRow({ entry, tz }: { entry: TAuditEntry; tz: TimeZoneMode }) {
  const name = entityName(entry.before, entry.after);
  return (
    <tr data-testid="audit-row" data-entity-type={entry.entityType} data-action={entry.action}>
      <td data-label="When" className="ts">
        <time dateTime={entry.at} data-testid="audit-at">
          {fmtDateTime(entry.at, tz)}
        </time>
        <div className="small faint">
          <RelTime value={entry.at} tz={tz} />
        </div>
      </td>
      <td
        data-label="Who"
        title={`${entry.actor.name}: ${ACTOR_KIND_WORDS[entry.actor.kind]}${entry.actor.id ? ` (${entry.actor.id})` : ''}`}
      >
        <span data-testid="audit-actor">{entry.actor.name}</span>
        <div className="small faint">{entry.actor.kind}</div>
      </td>
      <td data-label="Action">
        <span className={`chip ${ACTION_TONE[entry.action]}`}>{entry.action}</span>
      </td>
      <td data-label="What" data-testid="audit-what">
        <span className="small muted">{ENTITY_WORDS[entry.entityType]}</span>
        <div className="mono audit-entity" title={entry.entityId}>
          {name && name !== entry.entityId ? (
            <>
              {name} <span className="faint">{entry.entityId}</span>
            </>
          ) : (
            entry.entityId
          )}
        </div>
      </td>
      <td data-label="Change" className="audit-change">
        <AuditDiffView before={entry.before} after={entry.after} tz={tz} />
      </td>
    </tr>
  );
}
