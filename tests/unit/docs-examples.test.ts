/** Keeps docs/contract.md honest: every worked example is recomputed and compared. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateEvent, type DoorwatchEvent } from '@/lib/contract/event';
import { summarize } from '@/lib/boundary/summarize';
import { decideResume } from '@/lib/boundary/decide-resume';

const doc = readFileSync(join(process.cwd(), 'docs/contract.md'), 'utf8');

interface Example {
  name: string;
  params: Record<string, string>;
  events: unknown[];
  expected: unknown;
}

/** The first ```json block after `from`, parsed. */
function jsonBlockAfter(from: number): unknown {
  const m = /```json\n([\s\S]*?)```/.exec(doc.slice(from));
  assert.ok(m, `no json block after offset ${from}`);
  return JSON.parse(m[1]);
}

function parseExamples(): Example[] {
  const examples: Example[] = [];
  for (const m of doc.matchAll(/<!-- example: ([^>]*?) -->/g)) {
    const [name, ...rest] = m[1].split('|').map((s) => s.trim());
    const params = Object.fromEntries(rest.map((kv) => kv.split(/:\s+/).map((s) => s.trim()) as [string, string]));
    const expectedAt = doc.indexOf(`<!-- expected-summary: ${name} -->`);
    assert.ok(expectedAt >= 0, `missing expected summary for ${name}`);
    examples.push({ name, params, events: jsonBlockAfter(m.index) as unknown[], expected: jsonBlockAfter(expectedAt) });
  }
  return examples;
}

describe('docs/contract.md worked examples', () => {
  const examples = parseExamples();

  test('the document has the four examples', () => {
    assert.deepEqual(
      examples.map((e) => e.name),
      ['refusal', 'deadlock', 'dual', 'safe'],
    );
  });

  for (const ex of examples) {
    test(`example "${ex.name}" summary matches`, () => {
      const events: DoorwatchEvent[] = ex.events.map((raw, i) => {
        const r = validateEvent(raw);
        assert.ok(r.ok, `event ${i} invalid: ${JSON.stringify(!r.ok && r.issues)}`);
        return r.event;
      });
      const token = ex.params.summarize;
      const own = events.filter((e) => e.token === token);
      // Successor lookup the way ingest does it: another token's session.opened naming this one.
      const succ = events.find((e) => e.type === 'session.opened' && e.token !== token && e.data.previousToken === token);
      const summary = summarize(own, Date.parse(ex.params.now), {
        server: ex.params.server,
        successor: succ ? { server: ex.params['successor-server'], token: succ.token, openedAt: succ.at } : null,
      });
      assert.deepEqual(summary, ex.expected);
    });
  }

  test('decideResume on the examples: refuse exactly where the server should have', () => {
    const byName = Object.fromEntries(examples.map((e) => [e.name, e]));
    const eventsBefore = (name: string, id: string) => {
      const all = byName[name].events.map((raw) => {
        const r = validateEvent(raw);
        assert.ok(r.ok);
        return r.event;
      });
      return all.slice(
        0,
        all.findIndex((e) => e.id === id),
      );
    };
    assert.equal(decideResume(eventsBefore('refusal', 'srv-eu-1:0004'), { lastEventId: 41 }).action, 'refuse');
    assert.equal(decideResume(eventsBefore('deadlock', 'a4'), { lastEventId: 17 }).action, 'refuse');
    assert.equal(decideResume(eventsBefore('dual', 'ap1-103'), { lastEventId: null }).action, 'refuse');
    assert.deepEqual(decideResume(eventsBefore('safe', 'eu1-0203'), { lastEventId: 11 }), { action: 'resume', fromEventId: 11 });
  });
});
