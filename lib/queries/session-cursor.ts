// Opaque keyset cursor for the session list: the sort key, server and token of the last row
// of a page. Keyset (not offset) pagination stays stable under inserts: new sessions land
// before the cursor (newest-first) and never shift the rows after it.
import { ApiError } from '@/lib/http/api-error';
import { SESSION_SORTS, type TSessionSort } from '@/lib/contract/api/sessions';

export interface SessionCursor {
  sort: TSessionSort;
  key: number;
  server: string;
  token: string;
}

export function encodeCursor(c: SessionCursor): string {
  return Buffer.from(JSON.stringify({ v: 1, o: c.sort, k: c.key, s: c.server, t: c.token })).toString('base64url');
}

/** 400 `invalid_cursor` if it was not produced by encodeCursor for this sort order. */
export function decodeCursor(value: string, sort: TSessionSort): SessionCursor {
  let raw: unknown;
  try {
    if (!/^[A-Za-z0-9_-]{1,2048}$/.test(value)) throw new Error('not base64url');
    raw = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    throw new ApiError(400, 'invalid_cursor', 'cursor is not one this API issued; start again without cursor=');
  }
  const o = raw as Record<string, unknown>;
  if (
    typeof o !== 'object' ||
    o === null ||
    o.v !== 1 ||
    !(SESSION_SORTS as readonly unknown[]).includes(o.o) ||
    // Sort keys are epoch ms: a safe integer, so 1.5 or 1e300 is refused here, not by the database.
    typeof o.k !== 'number' ||
    !Number.isSafeInteger(o.k) ||
    typeof o.s !== 'string' ||
    typeof o.t !== 'string' ||
    o.s.includes('\0') ||
    o.t.includes('\0')
  ) {
    throw new ApiError(400, 'invalid_cursor', 'cursor is not one this API issued; start again without cursor=');
  }
  if (o.o !== sort) throw new ApiError(400, 'invalid_cursor', `cursor belongs to sort=${o.o}, not sort=${sort}`);
  return { sort, key: o.k, server: o.s, token: o.t };
}
