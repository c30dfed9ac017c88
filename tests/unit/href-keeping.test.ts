// Links to other pages keep the range, refresh and zone, and a path's own parameters (an API's
// `sessionsPath` with its window, an incident's alert entry with its `?rule=`) win over them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hrefKeeping } from '@/lib/ui/url-state';

const here = new URLSearchParams('from=now-1h&to=now&refresh=10s&tz=utc&flag=deadlock&context=hide');

test('a plain path keeps the global params only', () => {
  assert.equal(hrefKeeping(here, '/servers/edge'), '/servers/edge?from=now-1h&to=now&refresh=10s&tz=utc');
});

test("a path's own parameters are kept, and win over the current ones", () => {
  const href = hrefKeeping(here, '/sessions?server=edge&from=2026-12-07T10%3A00%3A00.000Z&flag=naive_resume&synthetic=exclude');
  const u = new URL(href, 'http://x');
  assert.equal(u.pathname, '/sessions');
  assert.equal(u.searchParams.get('from'), '2026-12-07T10:00:00.000Z', "the path's window, not the page's");
  assert.equal(u.searchParams.get('to'), 'now');
  assert.equal(u.searchParams.get('flag'), 'naive_resume', "the path's filter, not the page's");
  assert.equal(u.searchParams.get('synthetic'), 'exclude');
  assert.equal(u.searchParams.get('server'), 'edge');
  assert.equal(u.searchParams.get('context'), null, "the page's own view state stays behind");
});

test('extra parameters win over both', () => {
  const u = new URL(hrefKeeping(here, '/alerts?rule=a%26b', { rule: 'c' }), 'http://x');
  assert.equal(u.searchParams.get('rule'), 'c');
  assert.equal(new URL(hrefKeeping(here, '/alerts?rule=a%26b'), 'http://x').searchParams.get('rule'), 'a&b', 'escaped values survive');
});
