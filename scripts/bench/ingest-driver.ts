// The ingest benchmarks' load: signed batches of one server's events, posted to the apps over
// loopback HTTP at saturation (a few in flight) or paced at a given rate (open loop).
import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { generateFleet, type BenchEvent } from './fleet';
import { latencySummary, log, round, type BenchApp } from './common';
import type { TreeMemory } from './process-tree';

export interface Batch {
  server: string;
  events: BenchEvent[];
  payload: string;
}

/**
 * How each server's events are cut into batches: `session` keeps the generator's order (each session's events
 * together, so a batch holds whole sessions: every figure before 5 Dec 2026), `time` sorts them by timestamp, as a
 * reporter sends them (concurrent sessions interleave: a batch touches 20–30 % more sessions).
 */
export type BatchOrder = 'session' | 'time';

export function makeBatches(total: number, servers: number, batchSize: number, prefix: string, order: BatchOrder = 'session'): Batch[] {
  const now = Date.now();
  const byServer = new Map<string, BenchEvent[]>();
  // Timelines in the last 30 minutes (so they land in the stats window and no deadlock is "future").
  for (const s of generateFleet({ events: total, servers, fromMs: now - 30 * 60_000, toMs: now - 60_000, prefix, seed: 7 })) {
    let list = byServer.get(s.server);
    if (!list) byServer.set(s.server, (list = []));
    list.push(...s.events);
  }
  if (order === 'time') {
    for (const [server, list] of byServer) {
      const keyed = list.map((e) => ({ e, at: Date.parse(e.at) }));
      keyed.sort((a, b) => a.at - b.at);
      byServer.set(
        server,
        keyed.map((k) => k.e),
      );
    }
  }
  // Batches of one server each (a sender posts its own events); sessions may straddle batches.
  const perServer = [...byServer.entries()].map(([server, events]) => {
    const out: Batch[] = [];
    for (let i = 0; i < events.length; i += batchSize) {
      const part = events.slice(i, i + batchSize);
      out.push({ server, events: part, payload: JSON.stringify({ events: part }) });
    }
    return out;
  });
  // Interleave servers, like a fleet posting at the same time.
  const batches: Batch[] = [];
  for (let i = 0; perServer.some((b) => i < b.length); i++) for (const b of perServer) if (i < b.length) batches.push(b[i]);
  return batches;
}

export interface RunResult {
  events: number;
  accepted: number;
  requests: number;
  failures: number;
  seconds: number;
  eventsPerSec: number;
  requestMs: ReturnType<typeof latencySummary>;
  /** Per app: peak RSS of its whole process tree (sampled sum over every process `npm start` runs). */
  peakRssMb: number[];
  memory: TreeMemory[];
  /** The paced rate asked for (open loop), when this run was paced. */
  pacedEventsPerSec?: number;
  /** CPU seconds per wall second of each app process (1.0 = one core saturated) and of this load generator. */
  appCpuCores: number[];
  loaderCpuCores: number;
}

/**
 * Posts batches to the apps (round robin). Saturation (`paceEventsPerSec` unset): `concurrency`
 * requests in flight back to back. Paced: an open loop that starts batch i at i × (its events ÷
 * the rate), whatever is still in flight, so latency is measured at a given load, not at capacity.
 */
export async function drive(
  apps: BenchApp[],
  batches: Batch[],
  secrets: Map<string, string>,
  concurrency: number,
  paceEventsPerSec?: number,
  /** Receives each request's time in completion order (the long-session bench sends one at a time). */
  latencies: number[] = [],
): Promise<RunResult> {
  const hooks = new Map([...secrets].map(([k, v]) => [k, new Webhook(v)]));
  const lat = latencies;
  let accepted = 0;
  let failures = 0;
  let firstError = '';
  const cpu0 = apps.map((a) => a.cpuSeconds());
  const self0 = process.cpuUsage();
  const t0 = performance.now();
  async function send(i: number) {
    const b = batches[i];
    const app = apps[i % apps.length];
    const msgId = `msg_${randomUUID()}`;
    const ts = new Date();
    const signature = hooks.get(b.server)!.sign(msgId, ts, b.payload);
    const t = performance.now();
    const res = await fetch(`${app.url}/api/v1/ingest/${b.server}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': msgId,
        'webhook-timestamp': String(Math.floor(ts.getTime() / 1000)),
        'webhook-signature': signature,
      },
      body: b.payload,
    });
    const text = await res.text();
    lat.push(performance.now() - t);
    if (res.status !== 200) {
      failures++;
      firstError ||= `${res.status} ${text.slice(0, 300)}`;
    } else accepted += (JSON.parse(text) as { accepted: number }).accepted;
  }
  if (paceEventsPerSec === undefined) {
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < batches.length; i = next++) await send(i);
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
  } else {
    const inFlight: Promise<void>[] = [];
    let due = 0;
    for (let i = 0; i < batches.length; i++) {
      const wait = t0 + due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      inFlight.push(send(i));
      due += (batches[i].events.length / paceEventsPerSec) * 1000;
    }
    await Promise.all(inFlight);
  }
  const seconds = (performance.now() - t0) / 1000;
  if (firstError) log(`first failure: ${firstError}`);
  const events = batches.reduce((s, b) => s + b.events.length, 0);
  return {
    events,
    accepted,
    requests: batches.length,
    failures,
    seconds: round(seconds, 2),
    eventsPerSec: Math.round(accepted / seconds),
    ...(paceEventsPerSec === undefined ? {} : { pacedEventsPerSec: Math.round(paceEventsPerSec) }),
    requestMs: latencySummary(lat),
    peakRssMb: apps.map((a) => round(a.peakRssKb() / 1024)),
    memory: apps.map((a) => a.memory()),
    appCpuCores: apps.map((a, i) => round((a.cpuSeconds() - cpu0[i]) / seconds, 2)),
    loaderCpuCores: round((process.cpuUsage(self0).user + process.cpuUsage(self0).system) / 1e6 / seconds, 2),
  };
}
