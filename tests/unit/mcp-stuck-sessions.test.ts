// The MCP stuck_sessions tool lists the sessions stuck now first. Sorted by last activity alone, a
// client still waiting sank below every newer deadlock that had already ended (its last event is the
// naive resume it still waits on), off the first page: the tool answered "0 of those listed stuck now"
// while one was. And a `from` after the longest wait began is widened to it, as the overview's
// "Show stuck sessions" does. SQLite, or PostgreSQL with DOORWATCH_TEST_DATABASE.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ZStuckSessionsInput, ZStuckSessionsOutput } from '@/lib/contract/mcp-tools';
import { ingestEvents } from '@/lib/ingest/ingest-events';
import { stuckSessions } from '@/lib/mcp/fleet-tools';
import { addServer } from '@/lib/store/servers/server-registry';
import { migratedDatabaseForFile } from '../support/migrated-database';
import { naiveSession } from '../support/naive-session';

const database = migratedDatabaseForFile();
const MIN = 60_000;

const ask = async (args: Record<string, unknown>) =>
  ZStuckSessionsOutput.parse(await stuckSessions(database(), ZStuckSessionsInput.parse(args)));

test('a client stuck for 55 minutes leads the list, past 25 newer deadlocks that ended, and a later from reaches it', async () => {
  // The tool reads Doorwatch's clock: the sessions are placed relative to it, inside the default
  // DOORWATCH_DEADLOCK_MAX_MS (an hour: older unended deadlocks are "end unreported", not stuck now).
  const now = Date.now();
  await addServer(database(), 'stuck-mcp');
  await addServer(database(), 'stuck-mcp-other');
  await ingestEvents(database(), 'stuck-mcp', naiveSession('waiting', now - 55 * MIN), { now: now - 55 * MIN + 1_000 });
  for (let i = 0; i < 25; i++) {
    const t = now - 50 * MIN + i * 90_000; // the last ones inside the 15-minute question below
    const ended = [
      ...naiveSession(`ended-${i}`, t),
      { id: `ended-${i}.5`, token: `ended-${i}`, type: 'session.timeout', at: new Date(t + 30_000).toISOString(), data: {} },
    ];
    await ingestEvents(database(), 'stuck-mcp', ended, { now: t + 30_000 });
  }
  // Stuck too, on another server: left out when the question names one server.
  await ingestEvents(database(), 'stuck-mcp-other', naiveSession('elsewhere', now - 52 * MIN), { now: now - 52 * MIN + 1_000 });

  const all = await ask({ server: ['stuck-mcp'] });
  assert.equal(all.total, 26, 'every deadlocked session of the server');
  assert.equal(all.sessions.length, 20);
  assert.equal(all.ongoing, 1, 'the one still waiting is listed');
  assert.equal(all.sessions[0]!.token, 'waiting');
  assert.equal(all.sessions[0]!.deadlock?.ongoing, true);
  assert.deepEqual(
    all.sessions.slice(1, 4).map((s) => s.token),
    ['ended-24', 'ended-23', 'ended-22'],
    'then the rest, newest activity first',
  );

  // A 15-minute question: the ended deadlocks of the last 15 minutes, and the client stuck for 55 minutes.
  const recent = await ask({ server: ['stuck-mcp'], from: 'now-15m' });
  assert.equal(recent.sessions[0]!.token, 'waiting', 'the range reaches back to the longest wait');
  assert.equal(recent.ongoing, 1);
  assert.ok(!recent.sessions.some((s) => s.token === 'elsewhere'));

  const fleet = await ask({ from: 'now-15m' });
  assert.deepEqual(
    fleet.sessions
      .slice(0, 2)
      .map((s) => s.token)
      .sort(),
    ['elsewhere', 'waiting'],
    'both servers’ stuck clients first',
  );
  assert.equal(fleet.ongoing, 2);
});
