// The change streams (`GET /api/v1/changes`) this server holds open. On shutdown they are cut at once:
// server.close() alone waits for them, so for up to the 5 s shutdown grace every open page went on
// receiving heartbeats from an instance that no longer accepts requests, and said "live".
import type { Server, ServerResponse } from 'node:http';

const STREAM_PATHS = new Set(['/api/v1/changes']);

export function trackEventStreams(server: Server): { closeAll: () => void } {
  const open = new Set<ServerResponse>();
  server.on('request', (req, res: ServerResponse) => {
    if (req.method !== 'GET' || !STREAM_PATHS.has((req.url ?? '').split('?')[0])) return;
    open.add(res);
    res.once('close', () => open.delete(res));
  });
  return {
    closeAll: () => {
      for (const res of open) res.destroy();
      open.clear();
    },
  };
}
