// A keyset-paginated list's page as the URL holds it, read the same way by a list page's client
// view and by its server render (which prefetches that page): no React here.
export const LIST_LIMITS = [25, 50, 100, 200];
export const DEFAULT_LIST_LIMIT = 50;

/** `limit` (absent = default) and `cursor` from the URL. */
export function listPaging(get: (key: string) => string | null): { limit: number; cursor: string } {
  return { limit: Number(get('limit')) || DEFAULT_LIST_LIMIT, cursor: get('cursor') ?? '' };
}

/** A comma-separated URL list (`flag=a,b`), trimmed, empty items dropped. */
export function splitList(v: string | null): string[] {
  return (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}
