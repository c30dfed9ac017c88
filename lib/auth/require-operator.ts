// The one gate for operator-only routes: Bearer token or browser session cookie.
import { getDb, type Db } from '@/lib/db/client';
import { ApiError } from '@/lib/http/api-error';
import type { TOperatorRole } from '@/lib/contract/api/operators';
import type { OperatorAuth } from '@/lib/contract/api/route-contract';
import { clientAddress } from '@/lib/http/forwarded';
import { assertSameOrigin, isSafeMethod } from './csrf';
import { throttled } from './credential-throttle';
import { lookupWithOutageGrace } from './outage-grace';
import type { OperatorRecord } from '@/lib/store/operators';
import { findActiveOperatorById, findActiveOperatorByToken, isOperatorRole, touchOperator } from './operators';
import { SESSION_COOKIE, parseSession, readCookie, verifySessionMac } from './session-cookie';

export interface Operator {
  id: string;
  name: string;
  role: TOperatorRole;
}

export interface AuthenticatedOperator extends Operator {
  via: 'bearer' | 'cookie';
  /** Cookie sessions only. */
  expiresAt: number | null;
}

// scrape ranks below viewer: a Prometheus token reads /metrics and nothing else; viewer and admin read
// /metrics too. annotate stands apart: a CI/CD token posts annotations and reads nothing.
const ROLE_ADMITS: Record<OperatorAuth, readonly TOperatorRole[]> = {
  scrape: ['scrape', 'viewer', 'admin'],
  viewer: ['viewer', 'admin'],
  admin: ['admin'],
  annotate: ['annotate', 'admin'],
};

function unauthorized(message: string): ApiError {
  return new ApiError(401, 'unauthorized', message, { 'www-authenticate': 'Bearer realm="doorwatch"' });
}

/**
 * Who is calling, or a 401. Bearer wins over a cookie; a cookie session on a non-GET request
 * must pass the CSRF (Origin) check, else 403 `csrf_rejected`.
 */
export async function authenticate(
  request: Request,
  db: Db = getDb(),
  opts: { outageGrace?: boolean } = {},
): Promise<AuthenticatedOperator> {
  const header = request.headers.get('authorization');
  let record: OperatorRecord | null = null;
  let via: 'bearer' | 'cookie';
  let expiresAt: number | null = null;
  if (header !== null) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!m) throw unauthorized('Authorization must be "Bearer <operator token>"');
    // Guessing is throttled per presented token and per client address (429 + Retry-After).
    record = await throttled(clientAddress(request), m[1], async () => {
      const found = await lookupWithOutageGrace(m[1], opts.outageGrace === true, () => findActiveOperatorByToken(db, m[1]));
      if (!found) throw unauthorized('unknown or revoked operator token');
      return found;
    });
    via = 'bearer';
  } else {
    const cookie = readCookie(request, SESSION_COOKIE);
    if (!cookie) throw unauthorized('an operator token (Authorization: Bearer) or a login session is required');
    const parsed = parseSession(cookie);
    if (parsed) record = await findActiveOperatorById(db, parsed.operatorId);
    if (!parsed || !record || !verifySessionMac(parsed, record.tokenHash)) {
      throw unauthorized('login session is invalid or expired; log in again');
    }
    if (!isSafeMethod(request.method)) assertSameOrigin(request);
    via = 'cookie';
    expiresAt = parsed.expiresAt;
  }
  if (!isOperatorRole(record.role)) throw new ApiError(403, 'forbidden', 'operator token has an unknown role');
  void touchOperator(db, record);
  return { id: record.id, name: record.name, role: record.role, via, expiresAt };
}

/** Throws ApiError 401 `unauthorized` / 403 `forbidden` (or `csrf_rejected`); admin satisfies viewer. */
export async function requireOperator(request: Request, role: OperatorAuth, db: Db = getDb()): Promise<Operator> {
  const op = await authorize(request, role, db);
  return { id: op.id, name: op.name, role: op.role };
}

/** requireOperator, keeping how the caller authenticated (the route wrapper hands this to handlers). */
export async function authorize(request: Request, role: OperatorAuth, db: Db = getDb()): Promise<AuthenticatedOperator> {
  // Only the scrape route (/metrics) may authorise from memory while the database is down (outage-grace.ts).
  const op = await authenticate(request, db, { outageGrace: role === 'scrape' });
  if (!ROLE_ADMITS[role].includes(op.role)) {
    throw new ApiError(403, 'forbidden', `this needs the ${role} role; your token has ${op.role}`);
  }
  return op;
}
