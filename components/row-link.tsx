'use client';
// A link in a list, a tile or a panel. Next prefetches every link that scrolls into view: a
// sessions list of 50 rows cost 50 server renders per load and more on every refresh. These links
// are prefetched only when the operator points at or focuses one (about to open it); the top
// bar's section links keep Next's default.
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import type { ComponentProps } from 'react';

export function RowLink({ onMouseEnter, onFocus, ...props }: Omit<ComponentProps<typeof Link>, 'prefetch'>) {
  const router = useRouter();
  const href = typeof props.href === 'string' ? props.href : null;
  return (
    <Link
      {...props}
      prefetch={false}
      onMouseEnter={(e) => {
        if (href) router.prefetch(href);
        onMouseEnter?.(e);
      }}
      onFocus={(e) => {
        if (href) router.prefetch(href);
        onFocus?.(e);
      }}
    />
  );
}
