// Resident memory of a process group (the app: start script + `next start`), read from /proc.
import { readFileSync, readdirSync } from 'node:fs';

export interface RssSample {
  at: number;
  /** KiB over every process of the group. */
  totalKb: number;
  /** KiB of the group's largest process (the Next.js server) and its name. */
  largestKb: number;
  largest: string;
}

export function sampleGroupRss(pgid: number): RssSample {
  let totalKb = 0;
  let largestKb = 0;
  let largest = '';
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // Fields after the parenthesised name: state ppid pgrp …
      const [, name, rest] = /^\d+ \((.*)\) (.*)$/s.exec(stat)!;
      if (Number(rest.split(' ')[2]) !== pgid) continue;
      const kb = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
      totalKb += kb;
      if (kb > largestKb) [largestKb, largest] = [kb, name];
    } catch {
      /* the process ended while we looked */
    }
  }
  return { at: Date.now(), totalKb, largestKb, largest };
}

/** Samples every `intervalMs` until stopped. */
export function watchRss(pgid: number, intervalMs = 1000) {
  const samples: RssSample[] = [sampleGroupRss(pgid)];
  const timer = setInterval(() => samples.push(sampleGroupRss(pgid)), intervalMs);
  return {
    samples,
    stop() {
      clearInterval(timer);
      samples.push(sampleGroupRss(pgid));
      return samples;
    },
  };
}
