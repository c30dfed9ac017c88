// The query API's answers about a set of tokens, for tests that compare two databases (a backup
// and its source, a dump and its restore): the stats over a window, the whole filtered session
// list, and the detail of chosen sessions. Only what is decided by the read clock is left out:
// `now` itself, an ongoing deadlock's `durationMs` (its age at read time) and the stats' idle time that
// sums such ages.
import assert from 'node:assert/strict';
import { call } from './http';

export interface Window {
  fromMs: number;
  toMs: number;
}

/** `value` with `now` removed everywhere and ongoing deadlocks' ages blanked; `drop` names more keys to remove. */
export function withoutReadClock(value: unknown, drop: ReadonlySet<string>): unknown {
  if (Array.isArray(value)) return value.map((v) => withoutReadClock(v, drop));
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === 'now' || drop.has(k)) continue;
    out[k] = withoutReadClock(v, drop);
  }
  if (out.ongoing === true && 'durationMs' in out) out.durationMs = 'age at read time';
  // Stats' deadlock idle time adds (now − start) of each ongoing deadlock.
  if (typeof out.ongoing === 'number' && out.ongoing > 0 && 'idleMs' in out) out.idleMs = 'includes ages at read time';
  return out;
}

async function get(url: string, token: string, path: string): Promise<unknown> {
  const r = await call(url, path, { token });
  assert.equal(r.status, 200, `${path}: ${r.text.slice(0, 300)}`);
  return r.body;
}

/**
 * Stats, session list (the export: every matching session) and the detail of `details`
 * (`server/token`). `drop`: fields written by the write clock (`receivedAt`, `updatedAt`) when
 * the two databases were fed at different times.
 */
export async function apiAnswers(url: string, token: string, w: Window, details: readonly string[], drop: readonly string[] = []) {
  const range = `from=${new Date(w.fromMs).toISOString()}&to=${new Date(w.toMs).toISOString()}`;
  const dropped = new Set(drop);
  const detail: Record<string, unknown> = {};
  for (const d of details) {
    const [server, t] = d.split('/');
    detail[d] = withoutReadClock(await get(url, token, `/api/v1/servers/${server}/sessions/${encodeURIComponent(t)}`), dropped);
  }
  return {
    stats: withoutReadClock(await get(url, token, `/api/v1/stats?${range}`), dropped),
    sessions: withoutReadClock(await get(url, token, `/api/v1/sessions/export?format=json&${range}`), dropped),
    firstPage: withoutReadClock(await get(url, token, `/api/v1/sessions?limit=20&${range}`), dropped),
    detail,
  };
}
