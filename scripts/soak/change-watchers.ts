// The soak's open pages: SSE clients on GET /api/v1/changes (plain node:http, one socket each), each
// counting the change messages it read, so the end can say every watcher stayed and kept receiving.
import { request, type ClientRequest } from 'node:http';

export interface Watcher {
  status: number;
  changes: number;
  /** The server ended the stream (or the socket failed) before close(). */
  ended: boolean;
}

export interface Watchers {
  watchers: Watcher[];
  close(): void;
}

function openOne(url: string, token: string, requests: ClientRequest[], state: { closing: boolean }): Promise<Watcher> {
  return new Promise((resolve, reject) => {
    const w: Watcher = { status: 0, changes: 0, ended: false };
    const req = request(`${url}/api/v1/changes`, { agent: false, headers: { authorization: `Bearer ${token}` } }, (res) => {
      w.status = res.statusCode ?? 0;
      if (w.status !== 200) {
        res.resume();
        resolve(w);
        return;
      }
      res.setEncoding('utf8');
      let buffered = '';
      res.on('data', (chunk: string) => {
        buffered += chunk;
        const frames = buffered.split('\n\n');
        buffered = frames.pop()!;
        for (const f of frames) {
          if (f.startsWith('event: ready')) resolve(w);
          else if (f.startsWith('event: change')) w.changes++;
        }
      });
      const end = () => {
        if (!state.closing) w.ended = true;
        resolve(w);
      };
      res.on('end', end);
      res.on('error', end);
    });
    req.on('error', (err) => (state.closing ? resolve(w) : reject(err)));
    req.end();
    requests.push(req);
  });
}

/** Opens `count` streams, a few at a time, and resolves once each has its `ready` (or was refused). */
export async function openWatchers(url: string, token: string, count: number): Promise<Watchers> {
  const requests: ClientRequest[] = [];
  const watchers: Watcher[] = [];
  const state = { closing: false };
  for (let i = 0; i < count; i += 20)
    watchers.push(...(await Promise.all(Array.from({ length: Math.min(20, count - i) }, () => openOne(url, token, requests, state)))));
  return {
    watchers,
    close() {
      state.closing = true;
      for (const r of requests) r.destroy();
    },
  };
}
