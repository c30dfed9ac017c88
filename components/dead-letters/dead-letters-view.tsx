'use client';
import { useState } from 'react';
import { CursorPager } from '@/components/cursor-pager';
import { DataTable } from '@/components/panel';
import { Empty, ErrorState, ListStates } from '@/components/states';
import { ServerSelect } from '@/components/server-select';
import type { TDeadLetter } from '@/lib/contract/api/dead-letters';
import { fmtDateTime, fmtInt, type TimeZoneMode } from '@/lib/ui/format';
import { useDeadLetter, useDeadLetters, type DeadLetterParams } from '@/lib/ui/queries';
import { describeRange } from '@/lib/ui/time-range';
import { useUrlState } from '@/lib/ui/url-state';

const LIMITS = [25, 50, 100, 200];
const DEFAULT_LIMIT = 50;

/** What each code means for the sender, in the words an operator would use with its author. */
const CODE_HINTS: Record<string, string> = {
  invalid_body: 'the request body was not JSON of the form {"events": [...]}: nothing in it was stored',
  invalid_type: 'the event type is not one of the contract’s ten',
  invalid_field: 'a field has the wrong form (timestamp, id, token, data)',
  missing_field: 'a required field is absent',
};

/** Pretty-prints JSON payloads; anything else is shown as received. */
function readable(payload: string, truncated: boolean): string {
  if (truncated) return payload;
  try {
    return JSON.stringify(JSON.parse(payload), null, 2);
  } catch {
    return payload;
  }
}

function Payload({ letter }: { letter: TDeadLetter }) {
  const [whole, setWhole] = useState(false);
  const full = useDeadLetter(letter.id, whole);
  const shown = whole && full.data ? full.data.deadLetter : letter;
  return (
    <details className="payload">
      <summary className="small">
        {fmtInt(letter.payloadChars)} chars{letter.payloadTruncated ? ' (preview)' : ''}
      </summary>
      <pre className="mono small" data-testid="dead-letter-payload">{readable(shown.payload, shown.payloadTruncated)}</pre>
      {letter.payloadTruncated && !whole && (
        <button type="button" className="btn btn-xs" onClick={() => setWhole(true)}>
          Load all {fmtInt(letter.payloadChars)} chars
        </button>
      )}
      {full.isFetching && <span className="small muted">Loading…</span>}
      {full.isError && <ErrorState error={full.error} onRetry={() => void full.refetch()} />}
    </details>
  );
}

function Row({ letter, tz }: { letter: TDeadLetter; tz: TimeZoneMode }) {
  return (
    <tr data-testid="dead-letter-row" data-code={letter.code}>
      <td className="ts">{fmtDateTime(letter.receivedAt, tz, true)}</td>
      <td className="mono">{letter.server ?? <span className="faint">unknown</span>}</td>
      <td>
        <span className="chip bad" title={CODE_HINTS[letter.code]}>{letter.code}</span>
      </td>
      <td className="mono small">
        {letter.eventIndex === null ? <span className="muted">whole request</span> : <>#{letter.eventIndex} {letter.eventId ?? <span className="faint">no id</span>}</>}
      </td>
      <td className="small dead-letter-message">{letter.message}</td>
      <td><Payload letter={letter} /></td>
    </tr>
  );
}

export function DeadLettersView() {
  const { global, get, set } = useUrlState();
  const { from, to, tz, refresh, server } = global;
  const codes = (get('code') ?? '').split(',').filter(Boolean);
  const limit = Number(get('limit')) || DEFAULT_LIMIT;
  const cursor = get('cursor') ?? '';
  const params: DeadLetterParams = {
    from,
    to,
    server: server || undefined,
    code: codes,
    limit,
    cursor: cursor || undefined,
  };
  const q = useDeadLetters(params, refresh);
  const data = q.data;
  const rows = data?.deadLetters ?? [];
  const rangeText = describeRange(from, to, (ms) => fmtDateTime(ms, tz).slice(0, 16));
  const toggleCode = (code: string) => {
    const next = codes.includes(code) ? codes.filter((c) => c !== code) : [...codes, code];
    set({ code: next.join(',') || null, cursor: null });
  };

  return (
    <div className="stack" data-testid="dead-letters">
      <div className="page-head">
        <h1>Dead letters</h1>
        <span className="sub small">
          {data ? (
            <>
              <strong className={data.total ? 'bad-text' : ''}>{fmtInt(data.total)}</strong> refused {rangeText.toLowerCase().startsWith('last') ? `in the ${rangeText.toLowerCase()}` : `in ${rangeText}`}
            </>
          ) : (
            rangeText
          )}
        </span>
      </div>
      <p className="small muted">
        What senders posted that Doorwatch could not accept: events that failed the contract (the rest of their batch was
        stored, the sender got a 207) and bodies that were not a batch at all (a 400). Accepted events never appear here;
        fix the sender, then it resends. Kept as long as raw events (<code>DOORWATCH_RETENTION_DAYS</code>).
      </p>

      <section className="panel">
        <div className="filters" role="group" aria-label="Filters">
          <ServerSelect id="dl-server-select" value={server} onChange={(v) => set({ server: v, cursor: null })} />
          <div className="field" role="group" aria-label="Codes (any of)">
            <span className="small muted">Codes</span>
            {(data?.byCode ?? []).map(({ code, count }) => (
              <label key={code} className="flag-toggle" title={CODE_HINTS[code]}>
                <input type="checkbox" checked={codes.includes(code)} onChange={() => toggleCode(code)} data-testid={`code-${code}`} />
                <span className={`chip ${codes.includes(code) ? 'bad' : ''}`}>
                  {code} · {fmtInt(count)}
                </span>
              </label>
            ))}
            {data && data.byCode.length === 0 && <span className="small faint">none in range</span>}
          </div>
          {codes.length || server ? (
            <button type="button" className="btn btn-ghost btn-xs" onClick={() => set({ code: null, server: null, cursor: null })}>
              Clear filters
            </button>
          ) : null}
        </div>
      </section>

      <section className={`panel ${q.isPlaceholderData ? 'stale' : ''}`} aria-label="Dead letter list">
        <ListStates
          query={q}
          loadingLabel="Loading dead letters…"
          isEmpty={rows.length === 0}
          empty={
            <Empty title="Nothing refused">
              {codes.length || server ? 'No dead letter matches these filters in this range.' : 'Every request in this range was accepted whole.'}
            </Empty>
          }
        >
          <DataTable
            testId="dead-letters-table"
            className="dead-letters"
            head={
              <>
                <th>Received</th>
                <th>Server</th>
                <th>Code</th>
                <th>Event</th>
                <th>Why</th>
                <th>Payload</th>
              </>
            }
          >
            {rows.map((l) => (
              <Row key={l.id} letter={l} tz={tz} />
            ))}
          </DataTable>
        </ListStates>
        {data && (
          <CursorPager
            filterKey={JSON.stringify({ ...params, cursor: undefined })}
            cursor={cursor}
            nextCursor={data.nextCursor}
            shown={rows.length}
            noun={['dead letter', 'dead letters']}
            limit={limit}
            limits={LIMITS}
            defaultLimit={DEFAULT_LIMIT}
            onLimit={(l) => set({ limit: l === null ? null : String(l), cursor: null })}
            onCursor={(c) => set({ cursor: c })}
          />
        )}
      </section>
    </div>
  );
}
