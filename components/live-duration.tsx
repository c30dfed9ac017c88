'use client';
import { fmtDuration } from '@/lib/ui/format';
import { useNow } from '@/lib/ui/use-now';

/**
 * An ongoing duration that keeps counting in the browser: `ms` as the server computed it, plus the
 * time since the response arrived (the browser's own clock on both sides, so no clock skew).
 */
export function LiveDuration({ ms, receivedAt, testId = 'live-duration' }: { ms: number; receivedAt: number; testId?: string }) {
  const now = useNow(1000);
  return (
    <span className="num" data-testid={testId}>
      {fmtDuration(ms + Math.max(0, now - receivedAt))}
    </span>
  );
}
