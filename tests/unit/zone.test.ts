// Times in a zone named by the browser (lib/time/zone.ts): the server writes the wall clock the
// browser will read, and a typed wall-clock time in that zone reads back as the right instant,
// across DST changes. The zone cookie is taken only when it names a real zone.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fromWallClock, isZoneName, wallClock, zoneOffsetMinutes } from '@/lib/time/zone';
import { fmtDateTime, fmtTime, tzLabel } from '@/lib/ui/format';
import { parseUserTime } from '@/lib/time/user-input';
import { renderZoneFrom } from '@/lib/ui/zone-cookie';

const T = Date.parse('2026-11-29T10:04:05.123Z');

describe('zones by name', () => {
  test('the wall clock in a named zone, whatever zone this process runs in', () => {
    assert.equal(fmtDateTime(T, 'utc', true), '2026-11-29 10:04:05.123');
    assert.equal(fmtDateTime(T, 'America/New_York', true), '2026-11-29 05:04:05.123');
    assert.equal(fmtDateTime(T, 'Asia/Kolkata', true), '2026-11-29 15:34:05.123');
    assert.equal(fmtTime(Date.parse('2026-11-29T18:30:00Z'), 'Asia/Kolkata'), '00:00:00.000');
    assert.equal(fmtDateTime(Date.parse('2026-11-29T18:30:00Z'), 'Asia/Kolkata'), '2026-11-30 00:00:00');
    assert.deepEqual(wallClock(T, 'Pacific/Chatham'), { y: 2026, mo: 11, d: 29, h: 23, mi: 49, s: 5, ms: 123 });
  });

  test('offsets and the label follow DST', () => {
    assert.equal(zoneOffsetMinutes(Date.parse('2026-07-01T12:00:00Z'), 'America/New_York'), -240);
    assert.equal(zoneOffsetMinutes(Date.parse('2026-12-01T12:00:00Z'), 'America/New_York'), -300);
    assert.equal(tzLabel('Asia/Kolkata', T), 'local (UTC+05:30)');
    assert.equal(tzLabel('America/New_York', T), 'local (UTC-05:00)');
    assert.equal(tzLabel('utc', T), 'UTC');
  });

  test('a wall clock back to its instant: ordinary times, the hour read twice (the earlier), the hour that does not exist', () => {
    const w = (s: string) => {
      const [d, t] = s.split(' ');
      const [y, mo, dd] = d.split('-').map(Number);
      const [h, mi] = t.split(':').map(Number);
      return { y, mo, d: dd, h, mi, s: 0, ms: 0 };
    };
    const ny = (s: string) => new Date(fromWallClock(w(s), 'America/New_York')).toISOString();
    assert.equal(ny('2026-11-29 05:04'), '2026-11-29T10:04:00.000Z');
    assert.equal(ny('2026-07-01 08:00'), '2026-07-01T12:00:00.000Z');
    // DST ends 2026-11-01 02:00 EDT: 01:30 happens twice, 02:30 once (EST).
    assert.equal(ny('2026-11-01 01:30'), '2026-11-01T05:30:00.000Z');
    assert.equal(ny('2026-11-01 02:30'), '2026-11-01T07:30:00.000Z');
    // DST starts 2026-03-08 02:00 EST: 02:30 does not exist (read with the offset before), 03:30 is EDT.
    assert.equal(ny('2026-03-08 02:30'), '2026-03-08T07:30:00.000Z');
    assert.equal(ny('2026-03-08 03:30'), '2026-03-08T07:30:00.000Z');
    assert.equal(new Date(fromWallClock(w('2026-11-30 00:00'), 'Asia/Kolkata')).toISOString(), '2026-11-29T18:30:00.000Z');
    assert.equal(parseUserTime('2026-11-29 05:04', 'America/New_York', T), '2026-11-29T10:04:00.000Z');
    assert.equal(parseUserTime('2026-11-29 05:04', 'utc', T), '2026-11-29T05:04:00.000Z');
  });

  test('the zone cookie counts only when it names a zone; else the server renders in its own', () => {
    assert.equal(isZoneName('Europe/Berlin'), true);
    assert.equal(renderZoneFrom('Asia/Kolkata'), 'Asia/Kolkata');
    for (const bad of [undefined, '', 'Mars/Olympus', 'Europe/Berlin;x', '../etc', 'x'.repeat(100)]) {
      assert.equal(renderZoneFrom(bad), Intl.DateTimeFormat().resolvedOptions().timeZone, String(bad));
    }
  });
});
