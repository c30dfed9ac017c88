'use client';
import Link from 'next/link';
import { usePathname, useSearchParams } from 'next/navigation';
import type { ReactNode } from 'react';
import { isServiceFailure } from '@/lib/ui/connection';
import { UiApiError } from '@/lib/ui/fetcher';
import { patchQuery } from '@/lib/ui/url-state';

/** Errors in the URL's own state: retrying the same URL can never work, dropping the bad parameters does. */
const URL_STATE_ERRORS = new Set(['invalid_time_range', 'invalid_bucket']);

export function Skeleton({ height = 160 }: { height?: number }) {
  return <div className="skeleton" style={{ height }} aria-hidden="true" />;
}

export function Loading({ label = 'Loading…', height }: { label?: string; height?: number }) {
  return (
    <div
      className="state-box"
      role="status"
      aria-live="polite"
      data-testid="loading-state"
      style={height ? { height, display: 'grid', placeItems: 'center' } : undefined}
    >
      {label}
    </div>
  );
}

export function Empty({ title, children, height }: { title: string; children?: ReactNode; height?: number }) {
  return (
    <div
      className="state-box"
      data-testid="empty-state"
      style={height ? { minHeight: height, display: 'grid', placeContent: 'center' } : undefined}
    >
      <div className="title">{title}</div>
      {children && <div className="small">{children}</div>}
    </div>
  );
}

export function ErrorState({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const message = error instanceof Error ? error.message : String(error);
  const code = error instanceof UiApiError ? error.code : null;
  const pathname = usePathname();
  const sp = useSearchParams();
  if (code && URL_STATE_ERRORS.has(code))
    return (
      <div className="state-box error" role="alert" data-testid="error-state" data-code={code}>
        <div className="title">The time range in this link does not work</div>
        <div className="small">
          {message}
          <span className="faint"> ({code})</span>
        </div>
        <Link
          className="btn btn-xs"
          style={{ marginTop: 8 }}
          href={`${pathname}${patchQuery(sp.toString(), { from: null, to: null, bucket: null })}`}
          data-testid="reset-range"
        >
          Show the last 15 minutes instead
        </Link>
      </div>
    );
  return (
    <div className="state-box error" role="alert" data-testid="error-state">
      <div className="title">Could not load this view</div>
      <div className="small">
        {message}
        {code && <span className="faint"> ({code})</span>}
      </div>
      {onRetry && (
        <button type="button" className="btn btn-xs" style={{ marginTop: 8 }} onClick={onRetry}>
          Retry
        </button>
      )}
    </div>
  );
}

/**
 * The states of a list backed by one query: loading, failed with nothing to show, empty, or the
 * rows (with the error above them when a refresh failed but earlier data is still shown).
 */
export function ListStates({
  query,
  loadingLabel,
  isEmpty,
  empty,
  children,
}: {
  query: { isPending: boolean; isError: boolean; error: unknown; data: unknown; refetch: () => unknown };
  loadingLabel: string;
  isEmpty: boolean;
  empty: ReactNode;
  children: ReactNode;
}) {
  if (query.isPending) return <Loading label={loadingLabel} />;
  const retry = () => void query.refetch();
  if (query.isError && !query.data) return <ErrorState error={query.error} onRetry={retry} />;
  if (isEmpty) return <>{empty}</>;
  // A failed refresh with rows on screen: they stay in place, marked stale by the shell, which says
  // why (components/shell/connection-notice.tsx); an error box here would push the list down.
  return (
    <>
      {query.isError && !isServiceFailure(query.error) && <ErrorState error={query.error} onRetry={retry} />}
      {children}
    </>
  );
}
