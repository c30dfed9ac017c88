// Statements that belong to one dedicated PostgreSQL connection rather than the pool: session
// advisory locks (held until the connection ends) and LISTEN (notifications arrive on that
// connection only). Callers own the connection; the SQL text stays in lib/db.
import type { ClientBase } from 'pg';

type Connection = Pick<ClientBase, 'query'>;

/** Waits for the session advisory lock `key`. */
export async function takeAdvisoryLock(client: Connection, key: number): Promise<void> {
  await client.query('SELECT pg_advisory_lock($1)', [key]);
}

/** Takes the session advisory lock `key` if it is free (or already this connection's); true when held. */
export async function tryAdvisoryLock(client: Connection, key: number): Promise<boolean> {
  const result = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [key]);
  return result.rows[0]?.ok === true;
}

/**
 * A round trip on the connection within `timeoutMs`: false when it fails or does not answer in
 * time (the query is left waiting; the caller ends the connection, which then destroys the socket).
 */
export async function pingConnection(client: Connection, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const ping = client.query('SELECT 1').then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([ping, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Subscribes the connection to a notification channel (a plain identifier, never user input). */
export async function listen(client: Connection, channel: string): Promise<void> {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
  await client.query(`LISTEN ${channel}`);
}
