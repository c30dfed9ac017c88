// What the benchmarks read of a running process tree from /proc: its members, their resident
// memory (sampled, and each one's high-water mark) and the CPU time they used.
import { readFileSync, readdirSync } from 'node:fs';

/** kB as MB, to one decimal. */
const mb = (kb: number) => Math.round(kb / 102.4) / 10;

/** VmRSS and VmHWM (kB) of one process; null when it is gone. */
function readRssKb(pid: number): { rss: number; hwm: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)\\s+kB`).exec(status)?.[1] ?? 0);
    return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
  } catch {
    return null;
  }
}

function commandLine(pid: number): string {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    // Paths shortened to their last two parts: `node tsx/dist/cli.mjs scripts/start.ts`.
    return argv
      .map((a) => (a.startsWith('/') ? a.split('/').slice(-2).join('/') : a))
      .join(' ')
      .slice(0, 120);
  } catch {
    return '';
  }
}

export interface TreeMemory {
  /** Highest sum of VmRSS over the whole tree at one sample (every 100 ms). */
  peakRssMb: number;
  /** Sum of every process's own VmHWM: an upper bound that cannot miss a spike between samples. */
  hwmSumMb: number;
  processes: { pid: number; command: string; peakRssMb: number }[];
}

/** Samples the RSS of a process and all its descendants from /proc until stopped. */
export function treeSampler(root: number, intervalMs = 100) {
  const seen = new Map<number, { command: string; hwm: number }>();
  let peakKb = 0;
  const sample = () => {
    let sum = 0;
    for (const pid of [root, ...childPids(root)]) {
      const r = readRssKb(pid);
      if (!r) continue;
      sum += r.rss;
      // The command is read again each time (`sh -c node …` may exec into node under the same pid),
      // but an exited process (a zombie has no command line) keeps the last one seen.
      const p = seen.get(pid);
      const command = commandLine(pid);
      seen.set(pid, { command: command || p?.command || '?', hwm: Math.max(p?.hwm ?? 0, r.hwm) });
    }
    peakKb = Math.max(peakKb, sum);
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  timer.unref();
  return {
    peakKb: () => (sample(), peakKb),
    memory: (): TreeMemory => {
      sample();
      const processes = [...seen].map(([pid, p]) => ({ pid, command: p.command, peakRssMb: mb(p.hwm) }));
      return { peakRssMb: mb(peakKb), hwmSumMb: Math.round(processes.reduce((s, p) => s + p.peakRssMb, 0) * 10) / 10, processes };
    },
    stop: () => clearInterval(timer),
  };
}

export function readCpuSeconds(pid: number): number {
  try {
    // Fields after the command name: utime and stime are the 12th and 13th (clock ticks, 100/s).
    const rest = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(rest[11]) + Number(rest[12])) / 100;
  } catch {
    return 0;
  }
}

export function childPids(pid: number): number[] {
  const out: number[] = [];
  try {
    for (const t of readdirSync(`/proc/${pid}/task`)) {
      const kids = readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8').trim();
      if (kids) for (const k of kids.split(/\s+/)) out.push(Number(k), ...childPids(Number(k)));
    }
  } catch {
    /* gone */
  }
  return out;
}
