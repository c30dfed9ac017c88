'use client';
// What the figures below do not count: a server filter that names no server, payloads refused at
// ingest (dead letters) and whole requests refused before they were read.
import { RowLink } from '@/components/row-link';
import type { TServerListResponse } from '@/lib/contract/api/servers';
import type { TStatsResponse } from '@/lib/contract/api/stats';
import { fmtInt } from '@/lib/ui/format';
import type { ParamPatch } from '@/lib/ui/url-state';

export function RangeNotices({
  stats: s,
  servers,
  server,
  link,
}: {
  stats: TStatsResponse;
  servers: TServerListResponse | undefined;
  server: string;
  link: (path: string, extra?: ParamPatch) => string;
}) {
  const serverNames = servers?.servers.map((x) => x.name) ?? [];
  return (
    <>
      {server && servers && !serverNames.includes(server) && (
        <div className="notice" role="status" data-testid="unknown-server-notice">
          <span>
            There is no server <strong>{server}</strong>: none is configured by that name and none has reported.
          </span>
          <RowLink href={link('/', { server: null })}>Show all servers →</RowLink>
        </div>
      )}

      {s.deadLetters > 0 && (
        <div className="notice" role="status" data-testid="dead-letter-notice">
          <strong className="num">{fmtInt(s.deadLetters)}</strong>
          <span>
            {s.deadLetters === 1 ? 'payload was' : 'payloads were'} refused at ingest in this range (events that failed the contract or
            bodies that were not a batch): these numbers do not include them.
          </span>
          <RowLink href={link('/dead-letters')} data-testid="dead-letter-notice-link">
            See what was sent →
          </RowLink>
        </div>
      )}

      {s.rejectedRequests > 0 && (
        <div className="notice" role="status" data-testid="rejected-requests-notice">
          <strong className="num">{fmtInt(s.rejectedRequests)}</strong>
          <span>
            ingest {s.rejectedRequests === 1 ? 'request was' : 'requests were'} refused in this range (wrong secret, skewed clock, unknown
            server, too large, rate limited): whatever they carried is in none of these numbers.
          </span>
          <RowLink href={link('/servers')} data-testid="rejected-requests-notice-link">
            See why, per server →
          </RowLink>
        </div>
      )}
    </>
  );
}
