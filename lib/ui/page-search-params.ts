// A page's `searchParams` prop (Next hands repeated keys as arrays) as the URLSearchParams the
// browser's useSearchParams would give for the same URL.
export type PageSearchParams = Record<string, string | string[] | undefined>;

export function searchParamsOf(sp: PageSearchParams): URLSearchParams {
  const out = new URLSearchParams();
  for (const [k, v] of Object.entries(sp)) for (const one of Array.isArray(v) ? v : v === undefined ? [] : [v]) out.append(k, one);
  return out;
}
