// Doorwatch watches its own /mcp sessions with the reporter package's MCP SDK adapter, the same one
// it asks MCP server authors to use. The adapter always runs (its idle timeout ends sessions whose
// client left without DELETE); with DOORWATCH_SELF_REPORT=<server name> it also reports them, signed,
// to this instance's own ingest, so Doorwatch's resumption health shows as a server like any other.
// The server registers itself under that name with a generated secret when it is not registered yet
// (a name in DOORWATCH_SERVERS uses its configured secret).
import { hostname } from 'node:os';
import { createReporter } from '@doorwatch/reporter';
import { createMcpSdkAdapter, type McpSdkAdapter } from '@doorwatch/reporter/mcp-sdk';
import { settings } from '@/lib/config/settings';
import { processSlot } from '@/lib/config/process-state';
import type { Db } from '@/lib/db/client';
import { activeSecrets, addServer } from '@/lib/store/servers/server-registry';
import { componentLogger } from '@/lib/log/logger';

/** A client gone this long without DELETE has abandoned its session: the transport is closed. */
export const MCP_IDLE_TIMEOUT_MS = 30 * 60_000;

const slot = processSlot<Promise<McpSdkAdapter>>('doorwatchMcpAdapter');

/** This instance's own address for its reporter: loopback for a wildcard HOST. */
function ownUrl(): string {
  const { HOST, PORT } = settings();
  const host = HOST === '0.0.0.0' || HOST === '' ? '127.0.0.1' : HOST === '::' ? '[::1]' : HOST.includes(':') ? `[${HOST}]` : HOST;
  return `http://${host}:${PORT}`;
}

/**
 * The server's active secret, registering the server first when nobody has. Two instances
 * registering at once: the loser fails this time (server_exists) and, the adapter not being kept,
 * reads the winner's secret on its next /mcp request.
 */
async function ownSecret(db: Db, server: string): Promise<string> {
  const secrets = await activeSecrets(db, server);
  return secrets.length > 0 ? secrets[0] : (await addServer(db, server)).secret;
}

async function createAdapter(db: Db): Promise<McpSdkAdapter> {
  const server = settings().DOORWATCH_SELF_REPORT;
  if (server === null) return createMcpSdkAdapter({ reporter: { report: () => true }, idleTimeoutMs: MCP_IDLE_TIMEOUT_MS });
  const log = componentLogger('mcp');
  const reporter = createReporter({
    url: ownUrl(),
    server,
    secret: await ownSecret(db, server),
    instance: `doorwatch-${hostname()}-${process.pid}`.replace(/[^A-Za-z0-9._:-]/g, '-').slice(0, 128),
    onError: (e) => log.warn({ code: e.code, err: e.message }, 'self-report failed'),
  });
  log.info({ server, url: ownUrl() }, 'reporting /mcp sessions to this Doorwatch');
  return createMcpSdkAdapter({ reporter, idleTimeoutMs: MCP_IDLE_TIMEOUT_MS });
}

/** The process's adapter, made on first use (a failure, e.g. the database down, is retried next time). */
export function mcpAdapter(db: Db): Promise<McpSdkAdapter> {
  let p = slot.get();
  if (p === undefined) {
    p = createAdapter(db);
    slot.set(p);
    p.catch(() => slot.set(undefined));
  }
  return p;
}
