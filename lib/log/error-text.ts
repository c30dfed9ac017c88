// The text of an error for a log line. Some driver errors carry no message of their own: node-pg's
// connection failure is an AggregateError with message "" whose errors say ECONNREFUSED. A log
// line must say what failed, so the first non-empty message (or code) along the causes is used.

/** First line of the first non-empty message (else code) in `err`, its causes and aggregated errors; bounded. */
export function errorText(err: unknown, max = 200): string {
  const queue: unknown[] = [err];
  const seen: unknown[] = [];
  let code: string | null = null;
  while (queue.length > 0 && seen.length < 12) {
    const e = queue.shift();
    if (e === null || e === undefined || seen.includes(e)) continue;
    seen.push(e);
    if (typeof e !== 'object') {
      const text = String(e).trim();
      if (text) return text.split('\n')[0].slice(0, max);
      continue;
    }
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string' && message.trim()) return message.trim().split('\n')[0].slice(0, max);
    const c = (e as { code?: unknown }).code;
    if (code === null && typeof c === 'string' && c) code = c;
    queue.push((e as { cause?: unknown }).cause);
    if (e instanceof AggregateError) queue.push(...e.errors);
  }
  return (code ?? (err instanceof Error ? err.name : String(err))).slice(0, max);
}
