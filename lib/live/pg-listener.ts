// One dedicated LISTEN connection per instance (a pooled connection would lose the LISTEN when
// returned). NOTIFY is delivered on commit, in commit order; after a lost connection the
// listener reconnects, LISTENs again and tells subscribers that anything may have changed
// (notifications sent while it was away are gone).
import { processSlot } from '@/lib/config/process-state';
import pg from 'pg';
import { CHANGE_CHANNEL, decodeChange, type Change } from './change';
import { publishChange } from './change-feed';
import { behindReplica } from './replica-gate';
import { componentLogger } from '@/lib/log/logger';

const RECONNECT_MS = [250, 500, 1000, 2000, 5000];

interface Listener {
  url: string;
  /** publishChange, behind the read replica's replay when there is one (replica-gate.ts). */
  publish: (change: Change) => void;
  client: pg.Client | null;
  attempt: number;
  stopped: boolean;
  ready: Promise<void>;
}

const current = processSlot<Listener>('doorwatchPgListener');

/** Everything may have changed: what a reconnect announces. */
const EVERYTHING: Change = { servers: [], tokens: [], allTokens: true };

async function connect(l: Listener, announce: boolean): Promise<void> {
  if (l.stopped) return;
  const client = new pg.Client({ connectionString: l.url });
  const retry = () => {
    if (l.client !== client || l.stopped) return;
    l.client = null;
    client.removeAllListeners();
    // The dying connection may still emit 'error': without a listener that is an uncaught exception.
    client.on('error', () => undefined);
    client.end().catch(() => undefined);
    const wait = RECONNECT_MS[Math.min(l.attempt++, RECONNECT_MS.length - 1)];
    setTimeout(() => void connect(l, true).catch(() => undefined), wait).unref();
  };
  client.on('error', retry);
  client.on('end', retry);
  client.on('notification', (msg) => {
    if (msg.channel !== CHANGE_CHANNEL || !msg.payload) return;
    const change = decodeChange(msg.payload);
    if (change) l.publish(change);
  });
  l.client = client;
  try {
    await client.connect();
    await client.query(`LISTEN ${CHANGE_CHANNEL}`);
    l.attempt = 0;
    if (announce) l.publish(EVERYTHING);
  } catch (err) {
    retry();
    throw err;
  }
}

/** Starts this instance's listener once (later calls wait for the same one). */
export function ensurePgListener(url: string): Promise<void> {
  const existing = current.get();
  if (existing && existing.url === url) return existing.ready;
  // Another database URL (settings changed under `next dev`): the old connection must not keep publishing.
  if (existing) stop(existing);
  const l: Listener = { url, publish: behindReplica(publishChange), client: null, attempt: 0, stopped: false, ready: Promise.resolve() };
  // A failed first connection keeps retrying in the background; callers are not held up by it.
  l.ready = connect(l, false).catch((err) =>
    componentLogger('live').error({ err: err instanceof Error ? err.message : String(err) }, 'LISTEN connection failed, retrying'),
  );
  current.set(l);
  return l.ready;
}

function stop(l: Listener): void {
  l.stopped = true;
  const client = l.client;
  l.client = null;
  if (client) {
    client.removeAllListeners();
    client.on('error', () => undefined);
    client.end().catch(() => undefined);
  }
}
