// What the soak samples every ~10 s about the app: resident memory of its process group (/proc), the
// server's V8 heap and open descriptors (its own /metrics: prom-client's default families), every
// descriptor of the group (/proc/<pid>/fd), and its database connections (PostgreSQL: pg_stat_activity
// rows of its database; SQLite: descriptors open on the database file, its -wal and -shm).
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { loadavg } from 'node:os';
import { Client } from 'pg';
import { sampleGroupRss } from '../../tests/support/process-rss';

export interface Sample {
  at: number;
  /** Whole process group, MiB. */
  rssMb: number;
  /** The server process (the group's largest), MiB. */
  serverRssMb: number;
  /** V8 heap used by the server's main thread, MiB (doorwatch_nodejs_heap_size_used_bytes). */
  heapUsedMb: number | null;
  /** The server's open descriptors (doorwatch_process_open_fds). */
  openFds: number | null;
  /** Descriptors of every process of the group. */
  groupFds: number;
  dbConnections: number;
  /** Change streams open (doorwatch_change_streams). */
  changeStreams: number | null;
  load1: number;
}

function groupPids(pgid: number): number[] {
  const out: number[] = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const rest = /^\d+ \(.*\) (.*)$/s.exec(readFileSync(`/proc/${pid}/stat`, 'utf8'))![1];
      if (Number(rest.split(' ')[2]) === pgid) out.push(Number(pid));
    } catch {
      /* ended while we looked */
    }
  }
  return out;
}

/** The group's descriptors, and how many of them point at `dbFile` or its -wal/-shm (SQLite's connections). */
function groupFds(pgid: number, dbFile: string | null): { total: number; onDb: number } {
  let total = 0;
  let onDb = 0;
  for (const pid of groupPids(pgid)) {
    try {
      for (const fd of readdirSync(`/proc/${pid}/fd`)) {
        total++;
        if (!dbFile) continue;
        try {
          if (readlinkSync(`/proc/${pid}/fd/${fd}`) === dbFile) onDb++;
        } catch {
          /* closed meanwhile */
        }
      }
    } catch {
      /* ended */
    }
  }
  return { total, onDb };
}

/** One value of a Prometheus text exposition (the first series of that name). */
export function metricValue(text: string, name: string): number | null {
  const m = new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text);
  return m ? Number(m[1]) : null;
}

export interface Sampler {
  sample(): Promise<Sample>;
  close(): Promise<void>;
}

/**
 * `databaseUrl`: the app's. SQLite connections are counted as descriptors on the main database file (one per
 * open connection; the -wal and -shm files are shared maps); PostgreSQL's as the server's sessions on the
 * app's database, this sampler's own excluded.
 */
export async function openSampler(o: { url: string; pgid: number; token: string; databaseUrl: string }): Promise<Sampler> {
  const sqliteFile = o.databaseUrl.startsWith('file:') ? o.databaseUrl.slice('file:'.length) : null;
  let pg: Client | null = null;
  if (!sqliteFile) {
    pg = new Client({ connectionString: o.databaseUrl });
    await pg.connect();
  }
  const mb = (kb: number) => Math.round((kb / 1024) * 10) / 10;
  return {
    async sample() {
      let text = '';
      try {
        const res = await fetch(`${o.url}/metrics`, {
          headers: { authorization: `Bearer ${o.token}` },
          signal: AbortSignal.timeout(10_000),
        });
        text = await res.text();
      } catch {
        /* counted as no value */
      }
      const fds = groupFds(o.pgid, sqliteFile);
      const dbConnections = pg
        ? Number(
            (
              await pg.query<{ n: string }>(
                'SELECT COUNT(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
              )
            ).rows[0].n,
          )
        : fds.onDb;
      const rss = sampleGroupRss(o.pgid);
      const heap = metricValue(text, 'doorwatch_nodejs_heap_size_used_bytes');
      return {
        at: Date.now(),
        rssMb: mb(rss.totalKb),
        serverRssMb: mb(rss.largestKb),
        heapUsedMb: heap === null ? null : Math.round((heap / 2 ** 20) * 10) / 10,
        openFds: metricValue(text, 'doorwatch_process_open_fds'),
        groupFds: fds.total,
        dbConnections,
        changeStreams: metricValue(text, 'doorwatch_change_streams'),
        load1: Math.round(loadavg()[0] * 100) / 100,
      };
    },
    async close() {
      await pg?.end();
    },
  };
}
