// What an audit entry may keep of an entity: everything but its secrets. Applied by recordAudit to
// every before and after, so a caller cannot forget it. Three rules, by key and by value:
// - a field named like a secret (secret, password, token, API key, authorization, cookie, a probe's
//   credential value) or a set of headers is replaced by "[redacted]" whole;
// - a string that carries a known secret format (whsec_ webhook secrets, dw_ operator tokens) keeps
//   only the prefix;
// - a URL loses its userinfo and its query values; a contact point's URL (incoming-webhook URLs carry
//   their secret in the path, as Slack's do) keeps only its origin and a short fingerprint, so a
//   change of URL still shows without the URL.
// Pure: no I/O (the fingerprint is a hash).
import { createHash } from 'node:crypto';
import type { TAuditEntityType } from '@/lib/contract/api/audit';

export const REDACTED = '[redacted]';

const SECRET_KEY = /secret|passw|token|api[-_]?key|authori[sz]ation|cookie|^credential$|^credentialValue$|^value$|^headers$/i;
const SECRET_TEXT = /\b(whsec_|dw_)[A-Za-z0-9+/=_-]{8,}/g;
const MAX_DEPTH = 12;

const fingerprint = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 12);

function redactUrl(text: string, wholePath: boolean): string | null {
  if (!/^https?:\/\//i.test(text)) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (wholePath) return `${url.origin}/… (sha256 ${fingerprint(text)})`;
  url.username = '';
  url.password = '';
  for (const key of [...url.searchParams.keys()]) url.searchParams.set(key, REDACTED);
  return url.href;
}

function redactText(entityType: TAuditEntityType, key: string | null, text: string): string {
  const asUrl = redactUrl(text, entityType === 'contact_point' && key === 'url');
  return (asUrl ?? text).replace(SECRET_TEXT, (_m, prefix: string) => `${prefix}${REDACTED}`);
}

function walk(entityType: TAuditEntityType, key: string | null, value: unknown, depth: number): unknown {
  if (key !== null && SECRET_KEY.test(key) && value !== null && value !== undefined && value !== false) return REDACTED;
  if (typeof value === 'string') return redactText(entityType, key, value);
  if (value === null || typeof value !== 'object') return value === undefined ? null : value;
  if (depth >= MAX_DEPTH) return REDACTED;
  if (Array.isArray(value)) return value.map((v) => walk(entityType, key, v, depth + 1));
  if (value instanceof Date) return value.toISOString();
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = walk(entityType, k, v, depth + 1);
  return out;
}

/** The entity as an audit entry keeps it: plain JSON values, secrets replaced (see above). */
export function redactForAudit(entityType: TAuditEntityType, value: unknown): unknown {
  return walk(entityType, null, value, 0);
}
