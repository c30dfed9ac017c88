'use client';
/**
 * Every piece of view state lives in the query string so a copied link reproduces
 * the view. Time range, refresh and tz are "global" params carried across pages;
 * page-specific filters are dropped when navigating between sections.
 */
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useCallback, useMemo } from 'react';
import { useDisplayZone } from './display-zone';
import { GLOBAL_PARAMS, readGlobal } from './global-params';

/** Overview charts: one series per outcome (default) or one per server (`?split=server`). */
export type ChartSplit = 'none' | 'server';
export const readSplit = (sp: { get(name: string): string | null }): ChartSplit => (sp.get('split') === 'server' ? 'server' : 'none');

export type ParamPatch = Record<string, string | null | undefined>;

/** Apply a patch to a query string; null/undefined/'' removes a key. */
export function patchQuery(current: string, patch: ParamPatch): string {
  const sp = new URLSearchParams(current);
  for (const [k, v] of Object.entries(patch)) {
    if (v === null || v === undefined || v === '') sp.delete(k);
    else sp.set(k, v);
  }
  const s = sp.toString();
  return s ? `?${s}` : '';
}

/** The global params of the current URL, for links to other sections. */
export function globalQuery(
  sp: { get(name: string): string | null },
  extra: ParamPatch = {},
  keep: readonly string[] = GLOBAL_PARAMS,
): string {
  const out = new URLSearchParams();
  for (const k of keep) {
    const v = sp.get(k);
    if (v) out.set(k, v);
  }
  for (const [k, v] of Object.entries(extra)) {
    if (v === null || v === undefined || v === '') out.delete(k);
    else out.set(k, v);
  }
  const s = out.toString();
  return s ? `?${s}` : '';
}

/**
 * A link to `path` that keeps the current URL's global params. The path may carry parameters of its
 * own (an API's `sessionsPath`, an alert's `?rule=`): they, then `extra`, win over the kept ones.
 */
export function hrefKeeping(
  sp: { get(name: string): string | null },
  path: string,
  extra: ParamPatch = {},
  keep: readonly string[] = GLOBAL_PARAMS,
): string {
  const at = path.indexOf('?');
  if (at < 0) return `${path}${globalQuery(sp, extra, keep)}`;
  const own = Object.fromEntries(new URLSearchParams(path.slice(at + 1)));
  return `${path.slice(0, at)}${globalQuery(sp, { ...own, ...extra }, keep)}`;
}

export function useUrlState() {
  const sp = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const zone = useDisplayZone(sp.get('tz') === 'utc' ? 'utc' : 'local');
  // `tz` is the zone to show times in: 'utc', or the operator's zone by name (lib/ui/display-zone.ts).
  const global = useMemo(() => ({ ...readGlobal(sp), tz: zone }), [sp, zone]);

  /**
   * `shallow`: only the URL changes (history.pushState/replaceState, which Next's router follows
   * for useSearchParams): for view state the server does not render from (the timeline's zoom and
   * spacing), so a zoom costs no server round trip.
   */
  const set = useCallback(
    (patch: ParamPatch, mode: 'push' | 'replace' = 'push', { shallow = false }: { shallow?: boolean } = {}) => {
      const next = `${pathname}${patchQuery(window.location.search, patch)}`;
      if (shallow) {
        if (mode === 'push') window.history.pushState(null, '', next);
        else window.history.replaceState(null, '', next);
      } else if (mode === 'push') router.push(next, { scroll: false });
      else router.replace(next, { scroll: false });
    },
    [pathname, router],
  );

  const get = useCallback((key: string) => sp.get(key), [sp]);
  const link = useCallback(
    (path: string, extra: ParamPatch = {}, keep: readonly string[] = GLOBAL_PARAMS) => hrefKeeping(sp, path, extra, keep),
    [sp],
  );

  return { sp, global, set, get, link, pathname, router };
}
