'use client';
import { useState } from 'react';
import { ListPage, toggled } from '@/components/list-page';
import { listPaging } from '@/lib/ui/list-paging';
import { ErrorState } from '@/components/states';
import { ServerSelect } from '@/components/server-select';
import type { TDeadLetter } from '@/lib/contract/api/dead-letters';
import { RelTime } from '@/components/rel-time';
import { fmtDateTime, fmtInt, type TimeZoneMode } from '@/lib/ui/format';
import { useDeadLetter, useDeadLetters } from '@/lib/ui/queries';
import type { DeadLetterParams } from '@/lib/ui/query-defs';
import { describeRange } from '@/lib/time/describe';
import { useNow } from '@/lib/ui/use-now';
import { useUrlState } from '@/lib/ui/url-state';

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
      <pre className="mono small" data-testid="dead-letter-payload">
        {readable(shown.payload, shown.payloadTruncated)}
      </pre>
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
      <td className="ts">
        <RelTime value={letter.receivedAt} tz={tz} />
      </td>
      <td className="mono">{letter.server ?? <span className="faint">unknown</span>}</td>
      <td>
        <span className="chip bad" title={CODE_HINTS[letter.code]}>
          {letter.code}
        </span>
      </td>
      <td className="mono small">
        {letter.eventIndex === null ? (
          <span className="muted">whole request</span>
        ) : (
          <>
            #{letter.eventIndex} {letter.eventId ?? <span className="faint">no id</span>}
          </>
        )}
      </td>
      <td className="small dead-letter-message">{letter.message}</td>
      <td>
        <Payload letter={letter} />
      </td>
    </tr>
  );
}

export function DeadLettersView() {
  const now = useNow(30_000);
  const { global, get, set } = useUrlState();
  const { from, to, tz, refresh, server } = global;
  const codes = (get('code') ?? '').split(',').filter(Boolean);
  const { limit, cursor } = listPaging(get);
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
  const rangeText = describeRange(from, to, (ms) => fmtDateTime(ms, tz).slice(0, 16), now);
  const toggleCode = (code: string) => set({ code: toggled(codes, code).join(',') || null, cursor: null });
  const filtered = Boolean(codes.length || server);

  return (
    <ListPage
      testId="dead-letters"
      title="Dead letters"
      sub={
        data ? (
          <>
            <strong className={data.totalInRange ? 'bad-text' : ''}>{fmtInt(data.totalInRange)}</strong> refused{' '}
            {rangeText.toLowerCase().startsWith('last') ? `in the ${rangeText.toLowerCase()}` : `in ${rangeText}`}
          </>
        ) : (
          rangeText
        )
      }
      intro={
        <p className="small muted">
          What senders posted that Doorwatch could not accept: events that failed the contract (the rest of their batch was stored, the
          sender got a 207) and bodies that were not a batch at all (a 400). Accepted events never appear here; fix the sender, then it
          resends. Kept as long as raw events (<code>DOORWATCH_RETENTION_DAYS</code>).
        </p>
      }
      filters={
        <>
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
        </>
      }
      filterParams={['code', 'server']}
      filtered={filtered}
      listLabel="Dead letter list"
      query={q}
      rows={data?.deadLetters ?? []}
      loadingLabel="Loading dead letters…"
      emptyTitle="Nothing refused"
      emptyText={filtered ? 'No dead letter matches these filters in this range.' : 'Every request in this range was accepted whole.'}
      table={{
        testId: 'dead-letters-table',
        className: 'dead-letters',
        columns: ['Received', 'Server', 'Code', 'Event', 'Why', 'Payload'],
      }}
      renderRow={(l) => <Row key={l.id} letter={l} tz={tz} />}
      filterKey={JSON.stringify({ ...params, cursor: undefined })}
      noun={['dead letter', 'dead letters']}
      total={data ? { count: data.total, capped: false } : null}
    />
  );
}
