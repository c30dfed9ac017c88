'use client';
// A 404 under /servers/<name>: the server itself does not exist (the pages below call notFound()
// only for that; an unknown token on a known server is the session page's own "No session …").
import { Suspense } from 'react';
import Link from 'next/link';
import { useParams } from 'next/navigation';
import { RowLink } from '@/components/row-link';
import { Empty } from '@/components/states';
import { safeDecode } from '@/lib/ui/format';
import { useUrlState } from '@/lib/ui/url-state';

// The link's view state, without the server filter that named the missing server.
const KEPT = ['from', 'to', 'refresh', 'tz'];

function WaysBack() {
  const { link } = useUrlState();
  return (
    <>
      <RowLink href={link('/servers', {}, KEPT)}>See the servers it knows</RowLink> or{' '}
      <RowLink href={link('/', {}, KEPT)}>go to the overview</RowLink>.
    </>
  );
}

export default function UnknownServer() {
  const server = safeDecode(useParams<{ server: string }>().server ?? '');
  return (
    <div className="panel" data-testid="unknown-server">
      <Empty title={`There is no server ${server}`}>
        Doorwatch has no server by that name: none is configured and none has reported.{' '}
        {/* Next renders a not-found boundary without the query string on the server (reading it there
            gives up server rendering of the whole page): the links gain the range in the browser. */}
        <Suspense
          fallback={
            <>
              <Link href="/servers">See the servers it knows</Link> or <Link href="/">go to the overview</Link>.
            </>
          }
        >
          <WaysBack />
        </Suspense>
      </Empty>
    </div>
  );
}
