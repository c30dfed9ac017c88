// What changed in one committed ingest: the servers and session tokens it touched. It travels as
// a NOTIFY payload (PostgreSQL caps those at 8,000 bytes) and as an SSE message to the browser.
import { z } from 'zod';

export const ZChangeToken = z.object({ server: z.string(), token: z.string() });

export const ZChange = z.object({
  servers: z.array(z.string()),
  tokens: z.array(ZChangeToken),
  /** True when tokens were left out to fit the payload: every session of `servers` may have changed. */
  allTokens: z.boolean(),
});
export type Change = z.infer<typeof ZChange>;
export type ChangeToken = z.infer<typeof ZChangeToken>;

/** The LISTEN/NOTIFY channel every instance listens on. */
export const CHANGE_CHANNEL = 'doorwatch_changes';

/** PostgreSQL's NOTIFY limit is 8,000 bytes; stay under it with room for multi-byte characters. */
export const MAX_PAYLOAD_BYTES = 7900;

export function changeOf(tokens: readonly ChangeToken[]): Change {
  const seen = new Set<string>();
  const unique: ChangeToken[] = [];
  for (const t of tokens) {
    const key = `${t.server}\u0000${t.token}`;
    if (!seen.has(key)) {
      seen.add(key);
      unique.push({ server: t.server, token: t.token });
    }
  }
  return { servers: [...new Set(unique.map((t) => t.server))].sort(), tokens: unique, allTokens: false };
}

/** Merges changes (coalescing several commits into one message); allTokens is sticky. */
export function mergeChanges(changes: readonly Change[]): Change {
  const merged = changeOf(changes.flatMap((c) => c.tokens));
  const servers = new Set([...merged.servers, ...changes.flatMap((c) => c.servers)]);
  return { servers: [...servers].sort(), tokens: merged.tokens, allTokens: changes.some((c) => c.allTokens) };
}

/** The payload for pg_notify: the whole change when it fits, else the servers alone (allTokens). */
export function encodeChange(change: Change, maxBytes = MAX_PAYLOAD_BYTES): string {
  return JSON.stringify(boundedChange(change, maxBytes));
}

/**
 * The change itself when its JSON fits in maxBytes, else the servers alone (allTokens), else
 * "anything" (allTokens, no servers). The SSE stream sends the same bound, so a message costs at
 * most ~8 KB per open page on either database.
 */
export function boundedChange(change: Change, maxBytes = MAX_PAYLOAD_BYTES): Change {
  if (Buffer.byteLength(JSON.stringify(change)) <= maxBytes) return change;
  const summary: Change = { servers: change.servers, tokens: [], allTokens: true };
  if (Buffer.byteLength(JSON.stringify(summary)) <= maxBytes) return summary;
  // Thousands of servers in one batch cannot happen (a batch is one server's), but never exceed the cap.
  return { servers: [], tokens: [], allTokens: true };
}

/** A payload back into a change; null for anything that is not one (a foreign NOTIFY on the channel). */
export function decodeChange(payload: string): Change | null {
  try {
    const parsed = ZChange.safeParse(JSON.parse(payload));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Whether a change can affect a view of `server` (empty servers + allTokens means "anything"). */
export function touchesServer(change: Change, server: string): boolean {
  if (change.allTokens && change.servers.length === 0) return true;
  return change.servers.includes(server);
}

/** Whether a change can affect one session's detail. */
export function touchesToken(change: Change, server: string, token: string): boolean {
  if (change.allTokens) return touchesServer(change, server);
  return change.tokens.some((t) => t.server === server && t.token === token);
}
