// GET /api/v1/changes: a Server-Sent Events stream telling an open page what changed. Changes are
// coalesced (at most one message per COALESCE_MS) and a heartbeat proves the stream is alive, so
// the page can tell "nothing happened" from "I am not hearing anything".
import type { Db } from '@/lib/db/client';
import { mergeChanges, type Change } from './change';
import { subscribeChanges } from './change-feed';
import { ensurePgListener } from './pg-listener';

export const COALESCE_MS = 250;
export const HEARTBEAT_MS = 5000;

const encoder = new TextEncoder();
const frame = (event: string, data: unknown) => encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);

export async function changeStream(db: Db, signal: AbortSignal): Promise<Response> {
  // Listen before answering: a change committed after "ready" reaches this page.
  if (db.config.provider === 'postgresql') await ensurePgListener(db.config.url);
  let cleanup = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      let pending: Change[] = [];
      let flushTimer: ReturnType<typeof setTimeout> | null = null;
      let closed = false;
      const send = (event: string, data: unknown) => {
        if (closed) return;
        try {
          controller.enqueue(frame(event, data));
        } catch {
          cleanup();
        }
      };
      const flush = () => {
        flushTimer = null;
        if (pending.length === 0) return;
        const merged = mergeChanges(pending);
        pending = [];
        send('change', { ...merged, at: Date.now() });
      };
      const unsubscribe = subscribeChanges((change) => {
        pending.push(change);
        flushTimer ??= setTimeout(flush, COALESCE_MS);
      });
      const heartbeat = setInterval(() => send('heartbeat', { at: Date.now() }), HEARTBEAT_MS);
      cleanup = () => {
        if (closed) return;
        closed = true;
        unsubscribe();
        clearInterval(heartbeat);
        if (flushTimer) clearTimeout(flushTimer);
        try {
          controller.close();
        } catch {
          /* already closed by the client */
        }
      };
      signal.addEventListener('abort', () => cleanup(), { once: true });
      controller.enqueue(encoder.encode(`retry: 2000\n\n`));
      send('ready', { at: Date.now(), heartbeatMs: HEARTBEAT_MS });
    },
    cancel() {
      cleanup();
    },
  });
  return new Response(body, {
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      // Proxies (nginx) must not buffer an event stream.
      'x-accel-buffering': 'no',
      connection: 'keep-alive',
    },
  });
}
