// `doorwatch tail`: follows GET /api/v1/changes (the Server-Sent Events stream the live pages use:
// lib/live/change-stream.ts) and prints each change. When the stream drops, ends, or goes quiet for
// three heartbeats, it reconnects with exponential backoff (0.5 s doubling to 30 s, reset once a
// stream is ready again). A refused token or role ends it (exit 3): retrying cannot cure that.
import { z } from 'zod';
import { changesRoute } from '@/lib/contract/api/routes/query';
import { ZChange } from '@/lib/live/change';
import { SseParser } from '@/lib/wire/sse';
import { answerError } from '../api';
import { flagList, flagString, type Command, type CommandContext } from '../command';
import { CliError, EXIT } from '../exit';
import { describeNetworkError } from '../network-error';
import { paint } from '../render';

const ZChangeMessage = ZChange.extend({ at: z.number() });
const ZReady = z.object({ at: z.number(), heartbeatMs: z.number().int().positive() });
const CONNECT_TIMEOUT_MS = 15_000;
const MAX_BACKOFF_MS = 30_000;

export const backoffMs = (attempt: number): number => Math.min(MAX_BACKOFF_MS, 500 * 2 ** Math.min(attempt - 1, 10));

type Line = Record<string, unknown> & { type: 'ready' | 'change' | 'reconnecting' };

interface Follow {
  ctx: CommandContext;
  servers: Set<string>;
  /** Changes still to print before exiting; Infinity follows forever. */
  remaining: number;
  emit(line: Line, text: string): void;
}

/** One connection: resolves with why it ended (to reconnect), or 'done' after --count changes. */
async function connectOnce(f: Follow, onReady: () => void): Promise<string> {
  const { url, headers } = f.ctx.api.prepare(changesRoute);
  const abort = new AbortController();
  let watchdog = setTimeout(() => abort.abort(new Error('connect timeout')), CONNECT_TIMEOUT_MS);
  let quietMs = CONNECT_TIMEOUT_MS;
  const arm = () => {
    clearTimeout(watchdog);
    watchdog = setTimeout(() => abort.abort(new Error('quiet')), quietMs);
  };
  try {
    let res: Response;
    try {
      res = await fetch(url, { headers: { ...headers, accept: 'text/event-stream' }, signal: abort.signal });
    } catch (err) {
      return describeNetworkError(err, CONNECT_TIMEOUT_MS);
    }
    if (res.status >= 500) return `the stream answered ${res.status}`;
    if (!res.ok || !res.body) throw await answerError(res, changesRoute, f.ctx.api.connection);
    const parser = new SseParser();
    const decoder = new TextDecoder();
    const reader = res.body.getReader();
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (err) {
        return abort.signal.aborted ? `no heartbeat for ${Math.round(quietMs / 1000)} s` : describeNetworkError(err, quietMs);
      }
      if (chunk.done) return 'the stream ended';
      arm();
      for (const ev of parser.push(decoder.decode(chunk.value, { stream: true }))) {
        if (ev.event === 'ready') {
          const ready = ZReady.safeParse(JSON.parse(ev.data));
          quietMs = 3 * (ready.success ? ready.data.heartbeatMs : 5000);
          arm();
          onReady();
          f.emit({ type: 'ready', at: ready.success ? ready.data.at : Date.now() }, `${paint(f.ctx.style, 'dim', 'following changes')}`);
        } else if (ev.event === 'change') {
          const change = ZChangeMessage.safeParse(JSON.parse(ev.data));
          if (!change.success) continue;
          const c = change.data;
          if (f.servers.size && !c.servers.some((s) => f.servers.has(s))) continue;
          const tokens = c.allTokens ? 'every session' : `${c.tokens.length} session${c.tokens.length === 1 ? '' : 's'}`;
          const shown = c.tokens.slice(0, 3).map((t) => t.token);
          const text = `${new Date(c.at).toISOString().slice(11, 23)}  ${c.servers.join(', ')}: ${tokens}${shown.length ? ` (${shown.join(', ')}${c.tokens.length > 3 ? ', …' : ''})` : ''}`;
          f.emit({ type: 'change', at: c.at, servers: c.servers, tokens: c.tokens, allTokens: c.allTokens }, text);
          if (--f.remaining <= 0) return 'done';
        }
      }
    }
  } finally {
    clearTimeout(watchdog);
    abort.abort();
  }
}

export const tailCommand: Command = {
  name: 'tail',
  args: '',
  summary: 'follow the change stream, reconnecting when it drops',
  options: {
    server: { type: 'string', multiple: true, arg: 'NAME', help: 'only changes touching this server (repeatable)' },
    count: { type: 'string', arg: 'N', help: 'exit after N changes (default: follow until interrupted)' },
  },
  async run(ctx) {
    const count = flagString(ctx.flags, 'count');
    if (count !== undefined && !/^[1-9]\d{0,8}$/.test(count)) {
      throw new CliError(EXIT.usage, 'invalid_count', `--count: "${count}" is not a whole number of changes (1 or more)`);
    }
    const f: Follow = {
      ctx,
      servers: new Set(flagList(ctx.flags, 'server')),
      remaining: count ? Number(count) : Infinity,
      emit: (line, text) => ctx.out(ctx.json ? JSON.stringify(line) : text),
    };
    let attempt = 0;
    for (;;) {
      const reason = await connectOnce(f, () => (attempt = 0));
      if (reason === 'done') return EXIT.ok;
      attempt++;
      const delayMs = backoffMs(attempt);
      if (ctx.json) ctx.out(JSON.stringify({ type: 'reconnecting', attempt, delayMs, reason }));
      else ctx.note(`${reason}; reconnecting in ${(delayMs / 1000).toFixed(1)} s (attempt ${attempt})`);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
  },
};
