// Change-stream clients for the fan-out test: many cheap readers on plain node:http (one socket
// each, no pooling), and one client that never reads, in python3 so it can shrink its socket's
// receive buffer and segment size (Node cannot): the server then meets backpressure after ~30 KB
// instead of the ~4 MB loopback buffers hold, and the test need not push megabytes to reach it.
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';

export interface Reader {
  status: number;
  /** The batch numbers seen in change messages (tokens named `<prefix><batch>-…`), with when each first arrived. */
  batches: Map<number, number>;
  /** True once the server ended the stream. */
  ended: boolean;
  close(): void;
}

/** Opens GET /api/v1/changes and resolves once the `ready` message arrived (or with the refusal's status). */
export function openReader(baseUrl: string, token: string, prefix: string): Promise<Reader> {
  return new Promise((resolve, reject) => {
    const req = request(`${baseUrl}/api/v1/changes`, { agent: false, headers: { authorization: `Bearer ${token}` } }, (res) => {
      const reader: Reader = { status: res.statusCode ?? 0, batches: new Map(), ended: false, close: () => req.destroy() };
      if (res.statusCode !== 200) {
        res.resume();
        resolve(reader);
        return;
      }
      res.setEncoding('utf8');
      let buffered = '';
      let ready = false;
      const batchOf = new RegExp(`"token":"${prefix}(\\d+)-`, 'g');
      res.on('data', (chunk: string) => {
        buffered += chunk;
        const frames = buffered.split('\n\n');
        buffered = frames.pop()!;
        for (const f of frames) {
          if (f.startsWith('event: ready') && !ready) {
            ready = true;
            resolve(reader);
          } else if (f.startsWith('event: change')) {
            for (const m of f.matchAll(batchOf)) if (!reader.batches.has(Number(m[1]))) reader.batches.set(Number(m[1]), Date.now());
          }
        }
      });
      const end = () => {
        reader.ended = true;
        if (!ready) reject(new Error('the change stream ended before "ready"'));
      };
      res.on('end', end);
      res.on('error', end);
      res.on('close', end);
    });
    req.on('error', reject);
    req.end();
  });
}

const NON_READER = `
import socket, sys, time
host, port, token = sys.argv[1], int(sys.argv[2]), sys.argv[3]
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
s.setsockopt(socket.IPPROTO_TCP, socket.TCP_MAXSEG, 536)
s.connect((host, port))
s.sendall(('GET /api/v1/changes HTTP/1.1\\r\\nHost: %s:%d\\r\\nAuthorization: Bearer %s\\r\\n\\r\\n' % (host, port, token)).encode())
print('sent', flush=True)
sys.stdin.readline()
deadline = time.time() + 15
s.settimeout(1)
n = 0
while time.time() < deadline:
    try:
        d = s.recv(65536)
    except socket.timeout:
        continue
    except ConnectionResetError:
        print('closed reset after', n, flush=True); sys.exit(0)
    if not d:
        print('closed eof after', n, flush=True); sys.exit(0)
    n += len(d)
print('open after', n, flush=True)
`;

export interface NonReader {
  /** Reads what is left and reports whether the server closed the connection ("closed …") or not ("open …"). */
  verdict(): Promise<string>;
  kill(): void;
}

/** Sends the stream request and then reads nothing until verdict() is asked. */
export async function openNonReader(baseUrl: string, token: string): Promise<NonReader> {
  const { hostname, port } = new URL(baseUrl);
  const child: ChildProcess = spawn('python3', ['-c', NON_READER, hostname, port, token], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (d: string) => (out += d));
  const waitFor = (re: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const m = re.exec(out);
        if (m) resolve(m[0]);
        return m;
      };
      if (check()) return;
      child.stdout!.on('data', check);
      child.once('exit', (code) => (check() ? undefined : reject(new Error(`python3 exited ${code}: ${out}`))));
    });
  await waitFor(/^sent$/m);
  return {
    verdict() {
      child.stdin!.write('look\n');
      return waitFor(/^(closed|open) .*$/m);
    },
    kill: () => child.kill('SIGKILL'),
  };
}
