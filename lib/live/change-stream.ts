// GET /api/v1/changes: a Server-Sent Events stream telling an open page what changed. Changes are
// coalesced (at most one message per COALESCE_MS, change-fanout.ts) and a heartbeat proves the
// stream is alive, so the page can tell "nothing happened" from "I am not hearing anything".
//
// A page that stops reading (a suspended laptop, a stuck proxy, a client that never reads) must
// not hold memory without bound: once the socket's buffers are full, Next stops pulling from this
// stream and its queue grows. The queue is measured in bytes, and a stream whose queue would pass
// DOORWATCH_CHANGE_STREAM_BUFFER_BYTES is dropped (the connection closed; EventSource reconnects
// when it reads again) instead of queuing more. The other streams never wait for it: the fan-out
// only queues.
import type { Db } from '@/lib/db/client';
import { settings } from '@/lib/config/settings';
import { componentLogger } from '@/lib/log/logger';
import { HEARTBEAT_MS, frame, joinFanout, noteDropped } from './change-fanout';
import { ensurePgListener } from './pg-listener';
import { claimStream } from './stream-quota';

const encoder = new TextEncoder();

/** Ends the response like a client abort: Next then destroys the socket without logging a failure. */
function droppedError(): Error {
  const err = new Error('change stream dropped: the client is not reading');
  err.name = 'AbortError';
  return err;
}

/** The stream for `holder` (the operator id its per-token limit counts against); 429 `too_many_streams` over the limit. */
export async function changeStream(db: Db, signal: AbortSignal, holder: string): Promise<Response> {
  const s = settings();
  const release = claimStream(holder, s.DOORWATCH_CHANGE_STREAMS_PER_TOKEN);
  const maxQueued = s.DOORWATCH_CHANGE_STREAM_BUFFER_BYTES;
  // Listen before answering: a change committed after "ready" reaches this page.
  if (db.config.provider === 'postgresql') await ensurePgListener(db.config.url);
  let cleanup: (err?: Error) => void = () => {};
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        let closed = false;
        const send = (bytes: Uint8Array) => {
          if (closed) return;
          // desiredSize = maxQueued − bytes already queued (ByteLengthQueuingStrategy below).
          const room = controller.desiredSize ?? 0;
          if (bytes.byteLength > room) {
            componentLogger('live').warn(
              { holder, queuedBytes: maxQueued - room, maxQueued },
              'change stream dropped: the client is not reading',
            );
            noteDropped();
            cleanup(droppedError());
            return;
          }
          try {
            controller.enqueue(bytes);
          } catch {
            cleanup();
          }
        };
        const leave = joinFanout(send);
        cleanup = (err?: Error) => {
          if (closed) return;
          closed = true;
          leave();
          release();
          try {
            if (err) controller.error(err);
            else controller.close();
          } catch {
            /* already closed by the client */
          }
        };
        if (signal.aborted) return cleanup();
        signal.addEventListener('abort', () => cleanup(), { once: true });
        controller.enqueue(encoder.encode(`retry: 2000\n\n`));
        send(frame('ready', { at: Date.now(), heartbeatMs: HEARTBEAT_MS }));
      },
      cancel() {
        cleanup();
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: maxQueued }),
  );
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
