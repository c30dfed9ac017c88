// Next's console lines become JSON log lines (lib/log/console-lines.ts): a real pino logger into a
// buffer, so what a log collector would read is what is checked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import pino from 'pino';
import { consoleMessage, routeConsoleToLog } from '@/lib/log/console-lines';

test("Next's status lines lose their colour and glyph, keep their text", () => {
  assert.equal(consoleMessage([' \u001b[32m✓\u001b[39m Running next.config.js took 252ms']), 'Running next.config.js took 252ms');
  assert.equal(consoleMessage(['⚠ %s is deprecated', 'x']), 'x is deprecated');
  assert.equal(consoleMessage(['count', 3]), 'count 3');
});

test('every console call becomes one JSON line at its level; blank ones none', () => {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  const saved = { log: console.log, info: console.info, debug: console.debug, warn: console.warn, error: console.error };
  try {
    routeConsoleToLog(pino({ level: 'debug', base: { component: 'next' } }, sink));
    console.log(' \u001b[32m✓\u001b[39m Running next.config.js took 252ms');
    console.warn(' ⚠ something odd');
    console.error(new Error('boom'));
    console.log('');
  } finally {
    Object.assign(console, saved);
  }
  const parsed = lines.map((l) => JSON.parse(l) as { level: number; msg: string; component: string });
  assert.deepEqual(
    parsed.map((p) => [p.level, p.component, p.msg.split('\n')[0]]),
    [
      [30, 'next', 'Running next.config.js took 252ms'],
      [40, 'next', 'something odd'],
      [50, 'next', 'Error: boom'],
    ],
  );
});
