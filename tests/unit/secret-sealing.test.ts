// Webhook secrets at rest: sealed with DOORWATCH_SECRET_KEY (AES-256-GCM), opened only with it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SecretSealingError, readSealingKey } from '@/lib/config/sealing-key';
import { isSealed, openSecret, sealSecret } from '@/lib/store/servers/secret-sealing';
import { generateSecret } from '@/lib/contract/server-secret';
import { openDb } from '@/lib/db/client';
import { readDatabaseConfig } from '@/lib/config/database-url';
import { reloadSettings } from '@/lib/config/settings';
import { runMigrations } from '@/lib/db/migrate/run-migrations';
import * as registry from '@/lib/store/servers/server-registry';
import { StoreError } from '@/lib/store/store-error';
import { storeErrorAnswer } from '@/lib/http/store-error-answer';

const KEY = randomBytes(32).toString('base64');
const OTHER = randomBytes(32).toString('base64');
const code = (c: string) => (err: unknown) => err instanceof SecretSealingError && err.code === c;

test('a sealed secret opens with its key only, and says why not otherwise', () => {
  const key = readSealingKey({ DOORWATCH_SECRET_KEY: KEY })!;
  const secret = generateSecret();
  const stored = sealSecret(secret, key);
  assert.ok(isSealed(stored));
  assert.ok(!stored.includes(secret.slice(6)), 'no trace of the secret');
  assert.notEqual(sealSecret(secret, key), stored, 'a fresh nonce every time');
  assert.equal(openSecret(stored, key), secret);
  assert.throws(() => openSecret(stored, readSealingKey({ DOORWATCH_SECRET_KEY: OTHER })), code('secret_key_mismatch'));
  assert.throws(() => openSecret(stored, null), code('secret_key_missing'));
  const tampered = stored.slice(0, -4) + (stored.endsWith('AAAA') ? 'BBBB' : 'AAAA');
  assert.throws(() => openSecret(tampered, key), code('secret_key_mismatch'));
  assert.throws(() => openSecret('dwsealed:v1:nonsense', key), code('sealed_secret_malformed'));
});

test('without a key secrets are stored as given; a malformed key is refused, not ignored', () => {
  const secret = generateSecret();
  assert.equal(sealSecret(secret, null), secret);
  assert.equal(openSecret(secret, null), secret);
  assert.equal(readSealingKey({}), null);
  assert.equal(readSealingKey({ DOORWATCH_SECRET_KEY: '  ' }), null);
  for (const bad of ['short', randomBytes(16).toString('base64'), 'not base64 at all!']) {
    assert.throws(() => readSealingKey({ DOORWATCH_SECRET_KEY: bad }), code('invalid_secret_key'), bad);
  }
});

test('registry: start-up seals secrets stored in clear, ingest opens them, a wrong key stops the start', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'dw-seal-'));
  const saved = process.env.DOORWATCH_SECRET_KEY;
  delete process.env.DOORWATCH_SECRET_KEY_PREVIOUS;
  try {
    const config = readDatabaseConfig({ DATABASE_URL: `file:${join(dir, 's.db')}` });
    await runMigrations(config);
    const secret = generateSecret();
    // Written by an earlier version without a key: in clear.
    delete process.env.DOORWATCH_SECRET_KEY;
    reloadSettings();
    const db = openDb(config);
    await registry.provisionServersFromEnv(db, `edge=${secret}`);
    assert.deepEqual(await registry.sealStoredSecrets(db), { sealed: 0, inClear: 1 });
    const raw = async () => (await db.prisma.serverSecret.findMany()).map((r) => r.secret);
    assert.deepEqual(await raw(), [secret]);

    // Restarted with a key.
    process.env.DOORWATCH_SECRET_KEY = KEY;
    reloadSettings();
    assert.deepEqual(await registry.sealStoredSecrets(db), { sealed: 1, inClear: 0 });
    const [stored] = await raw();
    assert.ok(isSealed(stored) && !stored.includes(secret.slice(6)));
    assert.deepEqual(await registry.activeSecrets(db, 'edge'), [secret]);
    await registry.provisionServersFromEnv(db, `edge=${secret}`);
    assert.equal((await raw()).length, 1, 'the same secret from the environment is recognised, not added twice');

    // The wrong key: start-up refuses, and ingest answers 503 (senders retry) rather than 401.
    process.env.DOORWATCH_SECRET_KEY = OTHER;
    reloadSettings();
    await assert.rejects(registry.sealStoredSecrets(db), code('secret_key_mismatch'));
    await assert.rejects(
      registry.activeSecrets(db, 'edge'),
      (err: unknown) =>
        err instanceof StoreError &&
        err.kind === 'unavailable' &&
        err.code === 'secret_key_mismatch' &&
        storeErrorAnswer(err).status === 503,
    );

    // Changing keys: with the old one as DOORWATCH_SECRET_KEY_PREVIOUS, start-up re-seals with the new one.
    process.env.DOORWATCH_SECRET_KEY_PREVIOUS = KEY;
    reloadSettings();
    assert.deepEqual(await registry.sealStoredSecrets(db), { sealed: 1, inClear: 0 });
    delete process.env.DOORWATCH_SECRET_KEY_PREVIOUS;
    reloadSettings();
    assert.deepEqual(await registry.sealStoredSecrets(db), { sealed: 0, inClear: 0 }, 'the new key alone opens everything now');
    await registry.provisionServersFromEnv(db, `edge=${secret}`); // (also drops the cached secrets)
    assert.deepEqual(await registry.activeSecrets(db, 'edge'), [secret]);
    await db.close();
  } finally {
    delete process.env.DOORWATCH_SECRET_KEY_PREVIOUS;
    if (saved === undefined) delete process.env.DOORWATCH_SECRET_KEY;
    else process.env.DOORWATCH_SECRET_KEY = saved;
    reloadSettings();
    rmSync(dir, { recursive: true, force: true });
  }
});
