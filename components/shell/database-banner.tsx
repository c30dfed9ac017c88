'use client';
// The database refuses writes (disk full): said on every page, because what is shown stops growing
// while senders keep retrying, and only an operator freeing space ends it.
import { fmtTime } from '@/lib/ui/format';
import { useDatabaseWriteRefusal } from '@/lib/ui/database-writes';
import { useUrlState } from '@/lib/ui/url-state';

export function DatabaseBanner() {
  const { global } = useUrlState();
  const refusal = useDatabaseWriteRefusal();
  if (!refusal) return null;
  return (
    <div className="notice" role="alert" data-testid="database-banner" data-code={refusal.code}>
      <div>
        <strong>The database cannot write: its disk is full</strong> (since {fmtTime(refusal.since, global.tz, false)}). Ingest is refused
        with 503 and senders retry; the data shown stops at the last stored event. Free disk space: Doorwatch recovers by itself.
      </div>
    </div>
  );
}
