'use client';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { tzLabel } from '@/lib/ui/format';
import { useMe } from '@/lib/ui/queries';
import { useUrlState } from '@/lib/ui/url-state';
import { writes } from '@/lib/ui/writes';
import { useStaleness } from '@/lib/ui/use-staleness';
import { useTypedBeforeHydration } from '@/lib/ui/use-typed-before-hydration';
import { AlertBanner } from './alert-banner';
import { useNavEdges } from './nav-edges';
import { ConnectionNotice } from './connection-notice';
import { DatabaseBanner } from './database-banner';
import { RefreshPicker } from './refresh-picker';
import { HelpDialog, useShortcuts } from './shortcuts';
import { ThemeToggle } from './theme';
import { TimeRangePicker } from './time-range-picker';

const NAV = [
  { href: '/', label: 'Overview', match: (p: string) => p === '/' },
  {
    href: '/sessions',
    label: 'Sessions',
    match: (p: string) => p.startsWith('/sessions') || p.includes('/sessions/') || p.startsWith('/tokens'),
  },
  { href: '/servers', label: 'Servers', match: (p: string) => p === '/servers' },
  { href: '/dead-letters', label: 'Dead letters', match: (p: string) => p === '/dead-letters' },
  { href: '/incidents', label: 'Incidents', match: (p: string) => p.startsWith('/incidents') },
  { href: '/alerts', label: 'Alerts', match: (p: string) => p === '/alerts' },
  { href: '/audit', label: 'Audit', match: (p: string) => p === '/audit', admin: true },
  { href: '/settings', label: 'Settings', match: (p: string) => p.startsWith('/settings'), admin: true },
];

function TokenLookup() {
  const router = useRouter();
  const { link } = useUrlState();
  const [value, setValue] = useState('');
  const input = useRef<HTMLInputElement>(null);
  useTypedBeforeHydration(input, value, setValue);
  // Before the page has hydrated, Enter submits the form as HTML: GET /tokens?token=… redirects to the
  // token's page (app/(dashboard)/tokens/page.tsx) instead of reloading this one without the token.
  return (
    <form
      className="lookup"
      role="search"
      action="/tokens"
      method="get"
      onSubmit={(e) => {
        e.preventDefault();
        const t = value.trim();
        if (t) router.push(link(`/tokens/${encodeURIComponent(t)}`));
      }}
    >
      <label htmlFor="token-lookup" className="sr-only">
        Look up a session token (any time)
      </label>
      <input
        ref={input}
        id="token-lookup"
        name="token"
        className="input lookup-input"
        placeholder="Find token…  /"
        value={value}
        onChange={(e) => setValue(e.target.value)}
        spellCheck={false}
        autoComplete="off"
        data-testid="token-lookup"
      />
    </form>
  );
}

function UserMenu() {
  const me = useMe();
  const signOut = async () => {
    // A single sign-on session's answer may name the provider's end-session page: sign out there too.
    let to = '/login';
    try {
      const answer = await writes.logout();
      if (answer?.endSessionUrl) to = answer.endSessionUrl;
    } finally {
      window.location.assign(to);
    }
  };
  return (
    <span className="row gap">
      <button
        type="button"
        className="btn btn-ghost btn-xs"
        onClick={() => void signOut()}
        title={me.data ? `Signed in as ${me.data.operator.name} (${me.data.operator.role}) — sign out` : 'Sign out'}
        data-testid="sign-out"
      >
        Sign out
      </button>
    </span>
  );
}

/** Closes the top bar's "⋯" menu on Escape or a press outside it (and outside its toggle). */
function useCloseOnOutside(open: boolean, close: () => void) {
  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent) => {
      if (!(e.target instanceof Element) || !e.target.closest('.toolbar-more, .more-toggle')) close();
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') close();
    };
    document.addEventListener('pointerdown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open, close]);
}

/** On a phone the sections scroll sideways in their row: the current one is scrolled into it. */
function useActiveNavInView(pathname: string) {
  useEffect(() => {
    const nav = document.querySelector<HTMLElement>('header.topbar .nav');
    const active = nav?.querySelector<HTMLElement>('.nav-link.active');
    if (!nav || !active || nav.scrollWidth <= nav.clientWidth) return;
    // Not scrollIntoView: it could scroll the page as well.
    nav.scrollLeft = Math.max(0, active.offsetLeft - nav.offsetLeft - (nav.clientWidth - active.offsetWidth) / 2);
  }, [pathname]);
}

export function AppShell({ children }: { children: ReactNode }) {
  const { pathname, global, set, link } = useUrlState();
  const [helpOpen, setHelpOpen] = useState(false);
  const [moreOpen, setMoreOpen] = useState(false);
  useCloseOnOutside(
    moreOpen,
    useCallback(() => setMoreOpen(false), []),
  );
  useActiveNavInView(pathname);
  const me = useMe();
  // After the centring above (effects run in order); the admin's two sections widen the row.
  useNavEdges(`${pathname} ${me.data?.operator.role ?? ''}`);
  const showHelp = useCallback(() => setHelpOpen(true), []);
  const { stale } = useStaleness();
  useShortcuts(showHelp);
  return (
    <div className="shell">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <header className="topbar">
        <Link href={link('/')} className="brand" aria-label="Doorwatch overview">
          <span className="brand-mark" aria-hidden="true">
            ▮▯
          </span>
          <span>Doorwatch</span>
        </Link>
        <nav className="nav" aria-label="Sections">
          {NAV.filter((n) => !n.admin || me.data?.operator.role === 'admin').map((n) => (
            <Link
              key={n.href}
              href={link(n.href)}
              className={`nav-link ${n.match(pathname) ? 'active' : ''}`}
              aria-current={n.match(pathname) ? 'page' : undefined}
            >
              {n.label}
            </Link>
          ))}
        </nav>
        <TokenLookup />
        <div className="toolbar">
          <TimeRangePicker />
          <RefreshPicker />
          {/* Below 900 px these four sit behind "⋯" so the top bar keeps to two rows; wider, the wrapper
              is display: contents and they stand in the toolbar as before. */}
          <button
            type="button"
            className="btn btn-ghost btn-icon more-toggle"
            aria-expanded={moreOpen}
            aria-controls="toolbar-more"
            aria-label="More: time zone, theme, shortcuts, sign out"
            title="Time zone, theme, shortcuts, sign out"
            onClick={() => setMoreOpen((o) => !o)}
            data-testid="more-toggle"
          >
            ⋯
          </button>
          <div className="toolbar-more" id="toolbar-more" data-open={moreOpen ? 'true' : undefined}>
            <button
              type="button"
              className="btn btn-ghost btn-xs tz-toggle"
              onClick={() => set({ tz: global.tz === 'utc' ? null : 'utc' }, 'replace')}
              title={`Times shown in ${tzLabel(global.tz)} — click to switch (u)`}
              data-testid="tz-toggle"
            >
              {global.tz === 'utc' ? 'UTC' : 'Local'}
            </button>
            <ThemeToggle />
            <button
              type="button"
              className="btn btn-ghost btn-icon"
              onClick={showHelp}
              title="Keyboard shortcuts (?)"
              aria-label="Keyboard shortcuts"
            >
              ?
            </button>
            <UserMenu />
          </div>
        </div>
      </header>
      <main id="main" className="main" tabIndex={-1} data-stale={stale || undefined}>
        <DatabaseBanner />
        <AlertBanner />
        {children}
      </main>
      <ConnectionNotice />
      <HelpDialog open={helpOpen} onClose={() => setHelpOpen(false)} />
    </div>
  );
}
