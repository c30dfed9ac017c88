// Every setting Doorwatch reads from its environment, in one zod schema: name, type, default,
// bounds and meaning. Nothing else in lib/, app/ or scripts/ reads process.env for a setting:
// code asks settings() (validated once per process) and start-up calls it before it migrates or serves, so a bad
// value stops the start with one line per bad value instead of surfacing later as a 500 or a silently ignored
// knob. README's Configuration table lists the same names (tests/unit/settings.test.ts keeps the two in step).
import { processSlot } from './process-state';
import { z } from 'zod';
import { DEFAULT_DEADLOCK_THRESHOLD_MS } from '@/lib/boundary/summarize';
import { DEFAULT_DEADLOCK_MAX_MS } from '@/lib/boundary/deadlock-as-of';
import { databaseUrlProblem, readDatabaseConfig, DEFAULT_DATABASE_URL } from '@/lib/config/database-url';
import { DEFAULT_ALARM_HOLD_MS } from './alarm-defaults';
import { readPreviousSealingKey, readSealingKey, SecretSealingError } from './sealing-key';
import { SERVER_NAME } from '@/lib/contract/server-name';
import { isWellFormedSecret } from '@/lib/contract/server-secret';
import { ALLOWABLE_ADDRESS_CLASSES, type AllowableAddressClass } from '@/lib/contract/probe-result';
import { positiveNumber, trimmed, wholeNumber } from './setting-fields';
import { OIDC_SETTINGS, OIDC_SHOWN, oidcSettingProblems } from './oidc-settings';

export const MIN_ADMIN_TOKEN_LENGTH = 16;
export const DEFAULT_PRUNE_BATCH = 5_000;
export const DEFAULT_PRUNE_PAUSE_MS = 250;
/**
 * Door probes reach public and private-network addresses unless told otherwise: Doorwatch is
 * self-hosted beside the MCP servers it watches, usually on the same private network. Loopback
 * (this machine), link-local and cloud metadata are opt-in (docs/probes.md).
 */
export const DEFAULT_PROBE_ALLOW = 'public,private';

type Env = Record<string, string | undefined>;

/** DOORWATCH_SECRET_KEY and _PREVIOUS: base64 of 32 bytes, parsed by the sealing module itself. */
function sealingKey(read: (env: Env) => Buffer | null, name: string, description: string) {
  return z
    .preprocess(trimmed, z.string().optional())
    .transform((raw, ctx) => {
      try {
        return read({ [name]: raw });
      } catch (err) {
        if (!(err instanceof SecretSealingError)) throw err;
        ctx.issues.push({ code: 'custom', message: err.message, input: raw });
        return z.NEVER;
      }
    })
    .describe(description);
}

export const ZSettings = z.object({
  DATABASE_URL: z
    .preprocess(trimmed, z.string().optional())
    .transform((raw, ctx) => {
      const url = raw ?? DEFAULT_DATABASE_URL;
      const problem = databaseUrlProblem(url);
      if (problem) {
        ctx.issues.push({ code: 'custom', message: problem, input: raw });
        return z.NEVER;
      }
      return readDatabaseConfig({ DATABASE_URL: url });
    })
    .describe(`file:PATH for the embedded SQLite database, postgresql://… for PostgreSQL (default ${DEFAULT_DATABASE_URL})`),
  DATABASE_READ_URL: z
    .preprocess(trimmed, z.string().optional())
    .transform((raw, ctx) => {
      if (raw === undefined) return null;
      if (!raw.startsWith('postgresql://') && !raw.startsWith('postgres://')) {
        ctx.issues.push({ code: 'custom', message: 'must be a postgresql:// URL (a streaming replica of DATABASE_URL)', input: raw });
        return z.NEVER;
      }
      return readDatabaseConfig({ DATABASE_URL: raw });
    })
    .describe('postgresql://… of a streaming replica: the query API and pages read from it; writes stay on DATABASE_URL'),
  PORT: wholeNumber({ default: 3000, min: 0, max: 65_535, description: 'TCP port `npm start` / `npm run demo` listen on' }),
  HOST: z.preprocess(trimmed, z.string().default('0.0.0.0')).describe('address `npm start` / `npm run demo` listen on'),
  DOORWATCH_SERVERS: z
    .preprocess(trimmed, z.string().optional())
    .superRefine((raw, ctx) => {
      for (const entry of raw
        ?.split(',')
        .map((s) => s.trim())
        .filter(Boolean) ?? []) {
        const eq = entry.indexOf('=');
        const name = eq > 0 ? entry.slice(0, eq).trim() : '';
        if (!SERVER_NAME.test(name) || !isWellFormedSecret(entry.slice(eq + 1).trim())) {
          ctx.addIssue({
            code: 'custom',
            message: `entry "${name || entry.slice(0, 20)}" must look like name=whsec_<base64 of 24-64 bytes>`,
          });
          return;
        }
      }
    })
    .describe('servers provisioned at start-up, name=whsec_…,other=whsec_… (config as code)'),
  DOORWATCH_SECRET_KEY: sealingKey(
    readSealingKey,
    'DOORWATCH_SECRET_KEY',
    'base64 of 32 bytes: webhook secrets are sealed with it (AES-256-GCM) in the database',
  ),
  DOORWATCH_SECRET_KEY_PREVIOUS: sealingKey(
    readPreviousSealingKey,
    'DOORWATCH_SECRET_KEY_PREVIOUS',
    'the previous DOORWATCH_SECRET_KEY while changing keys: its secrets still open and are re-sealed at start-up',
  ),
  DOORWATCH_ADMIN_TOKEN: z
    .preprocess(
      trimmed,
      z
        .string()
        .min(MIN_ADMIN_TOKEN_LENGTH, { error: `must be at least ${MIN_ADMIN_TOKEN_LENGTH} characters` })
        .optional(),
    )
    .describe('bootstrap admin operator token; when unset, one is generated at first start, stored hashed and printed once'),
  DOORWATCH_DEADLOCK_THRESHOLD_MS: positiveNumber({
    default: DEFAULT_DEADLOCK_THRESHOLD_MS,
    min: 1,
    description: 'milliseconds after which an unended naive resume counts as an ongoing deadlock',
  }),
  DOORWATCH_DEADLOCK_MAX_MS: wholeNumber({
    default: DEFAULT_DEADLOCK_MAX_MS,
    min: 0,
    description:
      'the longest a deadlock can last (your servers\' longest idle timeout plus a margin): an unended one older than this is "end unreported", no longer stuck now; 0 = ongoing until its end is reported (default: 1 hour)',
  }),
  DOORWATCH_ALARM_HOLD_MS: wholeNumber({
    default: DEFAULT_ALARM_HOLD_MS,
    min: 0,
    description: 'milliseconds the overview alarm stays red (then amber) after its cause cleared, so it does not flap',
  }),
  DOORWATCH_INGEST_RATE: positiveNumber({
    default: 100_000,
    min: 0,
    description: 'per-server ingest budget in events/s per instance; 0 = unlimited',
  }),
  DOORWATCH_INGEST_BURST: positiveNumber({
    default: undefined,
    min: 1,
    description: 'burst of the ingest budget in events; default max(2 × rate, 1000)',
  }),
  DOORWATCH_RETENTION_DAYS: wholeNumber({ default: 30, min: 0, description: 'days raw events and dead letters are kept; 0 = forever' }),
  DOORWATCH_AUDIT_RETENTION_DAYS: wholeNumber({ default: 365, min: 0, description: 'days audit log entries are kept; 0 keeps everything' }),
  DOORWATCH_RETENTION_BATCH: wholeNumber({
    default: DEFAULT_PRUNE_BATCH,
    min: 1,
    description: 'rows per pruning DELETE (and per transaction)',
  }),
  DOORWATCH_RETENTION_PAUSE_MS: wholeNumber({
    default: DEFAULT_PRUNE_PAUSE_MS,
    min: 0,
    description: 'milliseconds between pruning batches',
  }),
  DOORWATCH_RETENTION_INTERVAL_MS: wholeNumber({
    default: 3_600_000,
    min: 1_000,
    description: 'milliseconds between scheduled pruning runs',
  }),
  DOORWATCH_PARTITION_DAYS_AHEAD: wholeNumber({
    default: 7,
    min: 1,
    max: 90,
    description: 'PostgreSQL: daily Event/DeadLetter partitions kept created ahead of today',
  }),
  DOORWATCH_PROBE_TICK_MS: wholeNumber({
    default: 15_000,
    min: 100,
    description: 'milliseconds between looks for due door probes (on the leader instance)',
  }),
  DOORWATCH_PROBE_CONCURRENCY: wholeNumber({
    default: 2,
    min: 1,
    max: 32,
    description: 'door probes one instance runs at a time (each target: one at a time)',
  }),
  DOORWATCH_PROBE_MIN_INTERVAL_MS: wholeNumber({
    default: 60_000,
    min: 1_000,
    description: 'shortest interval an admin may give a probe target (rate bound per target)',
  }),
  DOORWATCH_PROBE_ALLOW: z
    .preprocess(trimmed, z.string().optional())
    .transform((raw, ctx) => {
      const names = [...new Set((raw ?? DEFAULT_PROBE_ALLOW).split(',').map((c) => c.trim().toLowerCase()))].filter(Boolean);
      const known = ALLOWABLE_ADDRESS_CLASSES as readonly string[];
      const bad = names.find((c) => !known.includes(c));
      if (bad !== undefined || names.length === 0) {
        const what = bad === undefined ? 'names no address class' : `"${bad}" is not an address class`;
        ctx.issues.push({ code: 'custom', message: `${what}; use a comma-separated list of ${known.join(', ')}`, input: raw });
        return z.NEVER;
      }
      // In the table's order, so the start-up line and refusal messages read the same whatever was typed.
      return known.filter((c) => names.includes(c)) as AllowableAddressClass[];
    })
    .describe(
      'address classes door probes may connect to, comma-separated: public, private, loopback, link-local, metadata (metadata only when named)',
    ),
  DOORWATCH_PG_POOL_SIZE: wholeNumber({
    default: 10,
    min: 1,
    max: 1_000,
    description: 'PostgreSQL connections per instance for the hot paths',
  }),
  DOORWATCH_INGEST_THREADS: wholeNumber({
    default: 1,
    min: 0,
    max: 16,
    description: 'worker threads that verify, parse and store ingest batches beside the request thread (0: in the request thread)',
  }),
  DOORWATCH_SQLITE_BUSY_TIMEOUT_MS: wholeNumber({
    default: 1_000,
    min: 0,
    description: 'milliseconds a SQLite write waits (on timers, never blocking) for another process’s lock before answering 503',
  }),
  DOORWATCH_TRUST_PROXY: z
    .preprocess(trimmed, z.enum(['0', '1', 'true', 'false'], { error: 'must be 1 or 0 (true or false)' }).optional())
    .transform((v) => v === '1' || v === 'true')
    .describe('1 when a reverse proxy sets X-Forwarded-For/-Host/-Proto (and strips what clients send); else they are ignored'),
  DOORWATCH_AUTH_THROTTLE_MAX_KEYS: wholeNumber({
    default: 10_000,
    min: 10,
    max: 10_000_000,
    description:
      'client addresses, and separately failed credentials, the sign-in throttle remembers at most (least recently failed forgotten first)',
  }),
  DOORWATCH_KEEP_ALIVE_TIMEOUT_MS: wholeNumber({
    default: 65_000,
    min: 1,
    max: 9_999_999,
    description: 'milliseconds idle keep-alive connections stay open (longer than load balancers keep theirs)',
  }),
  // Slow clients (docs/deploy.md#slow-clients-and-many-watchers): past these a request is answered 408 and closed.
  DOORWATCH_HEADERS_TIMEOUT_MS: wholeNumber({ default: 10_000, min: 1, max: 9_999_999, description: 'ms to send a request’s headers' }),
  DOORWATCH_REQUEST_TIMEOUT_MS: wholeNumber({ default: 30_000, min: 1, max: 9_999_999, description: 'ms to send a whole request' }),
  DOORWATCH_CHANGE_STREAMS_PER_TOKEN: wholeNumber({
    default: 20,
    min: 1,
    max: 100_000,
    description: 'open change streams one operator token (with its login sessions) may hold; more are answered 429',
  }),
  DOORWATCH_CHANGE_STREAM_BUFFER_BYTES: wholeNumber({
    default: 65_536,
    min: 8_192,
    description: 'bytes queued for a stalled stream, then dropped',
  }),
  DOORWATCH_ALERT_INTERVAL_MS: wholeNumber({
    default: 15_000,
    min: 100,
    description: 'milliseconds between alert rule evaluations (one instance evaluates: the leader)',
  }),
  DOORWATCH_LEADER_CHECK_TIMEOUT_MS: wholeNumber({ default: 5_000, min: 100, description: 'ms a leader’s lock check may take (PG)' }),
  DOORWATCH_ALERT_MAX_ATTEMPTS: wholeNumber({
    default: 8,
    min: 1,
    max: 50,
    description: 'attempts per alert notification before it is marked failed',
  }),
  DOORWATCH_ALERT_MAX_PER_MINUTE: wholeNumber({
    default: 30,
    min: 1,
    max: 10_000,
    description: 'notifications queued per contact point per minute; more are held back and reported in one summary notification',
  }),
  DOORWATCH_ALERT_RETRY_BASE_MS: wholeNumber({
    default: 5_000,
    min: 10,
    description: 'first retry delay of a failed alert notification; doubles per attempt (at most 1 h)',
  }),
  DOORWATCH_INCIDENT_QUIET_MS: wholeNumber({
    default: 1_800_000,
    min: 1_000,
    description: 'milliseconds without new evidence (and with no alert of its kind firing) after which an incident resolves on its own',
  }),
  // Not trimmed or blank-as-unset: the value is key material and is used exactly as given.
  DOORWATCH_SESSION_SECRET: z.string().default('doorwatch-session-v1').describe('extra key mixed into login-session signatures'),
  ...OIDC_SETTINGS,
  DOORWATCH_PUBLIC_ORIGIN: z
    .preprocess(trimmed, z.string().optional())
    .transform((raw, ctx) => {
      const origins = (raw ?? '')
        .split(',')
        .map((o) => o.trim().replace(/\/+$/, '').toLowerCase())
        .filter(Boolean);
      const bad = origins.find((o) => !isOrigin(o));
      if (bad) {
        ctx.issues.push({ code: 'custom', message: `"${bad}" is not an origin like https://doorwatch.example.com`, input: raw });
        return z.NEVER;
      }
      return origins;
    })
    .describe(
      'the dashboard’s public origin(s) behind a proxy, comma-separated, for the CSRF Origin check; the first is the origin of links in alert notifications',
    ),
  DOORWATCH_SELF_REPORT: z
    .preprocess(trimmed, z.string().regex(SERVER_NAME, 'must be a server name (1-64 of a-z, 0-9 and -)').optional())
    .transform((raw) => raw ?? null)
    .describe('server name under which Doorwatch reports its own /mcp sessions to itself (unset: off)'),
  LOG_LEVEL: z
    .preprocess(trimmed, z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'))
    .describe('least severe log level written (fatal, error, warn, info, debug, trace, silent)'),
  LOG_FORMAT: z
    .preprocess(trimmed, z.enum(['json', 'pretty']).default('json'))
    .describe('json: one JSON object per line; pretty: readable lines (the demo)'),
});

export type Settings = Readonly<z.output<typeof ZSettings>>;
export type SettingName = keyof typeof ZSettings.shape;
export const SETTING_NAMES = Object.keys(ZSettings.shape) as SettingName[];

function isOrigin(o: string): boolean {
  try {
    const u = new URL(o);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.origin === o;
  } catch {
    return false;
  }
}

/** How a bad value is echoed in the error: key material never, a database URL by its scheme only. */
const SHOWN: Partial<Record<SettingName, (raw: string) => string>> = {
  DATABASE_URL: (raw) => `${raw.split(':')[0]}:...`,
  DATABASE_READ_URL: (raw) => `${raw.split(':')[0]}:...`,
  DOORWATCH_SERVERS: (raw) => `${raw.length} characters, not shown`,
  DOORWATCH_SECRET_KEY: (raw) => `${raw.length} characters, not shown`,
  DOORWATCH_SECRET_KEY_PREVIOUS: (raw) => `${raw.length} characters, not shown`,
  DOORWATCH_ADMIN_TOKEN: (raw) => `${raw.length} characters, not shown`,
  DOORWATCH_SESSION_SECRET: (raw) => `${raw.length} characters, not shown`,
  ...OIDC_SHOWN,
};

export class SettingsError extends Error {
  readonly code = 'invalid_settings';
  constructor(readonly problems: readonly string[]) {
    super(
      `${problems.length === 1 ? 'a setting is' : `${problems.length} settings are`} invalid:\n${problems.map((p) => `  ${p}`).join('\n')}`,
    );
    this.name = 'SettingsError';
  }
}

/**
 * The settings from `env`, typed and frozen, defaults applied. Throws one SettingsError listing
 * every bad value as `NAME: what is wrong (got "…")`. Unknown variables are ignored.
 */
export function readSettings(env: Env): Settings {
  const input = Object.fromEntries(SETTING_NAMES.map((name) => [name, env[name]]));
  const parsed = ZSettings.safeParse(input);
  if (parsed.success) {
    // A replica only makes sense beside a PostgreSQL primary (SQLite has no replication).
    if (parsed.data.DATABASE_READ_URL && parsed.data.DATABASE_URL.provider !== 'postgresql') {
      throw new SettingsError(['DATABASE_READ_URL: needs a postgresql:// DATABASE_URL (the primary it replicates)']);
    }
    // A maximum at or under the threshold would call a deadlock over the moment it is one.
    const { DOORWATCH_DEADLOCK_MAX_MS: maxMs, DOORWATCH_DEADLOCK_THRESHOLD_MS: thresholdMs } = parsed.data;
    if (maxMs > 0 && maxMs <= thresholdMs) {
      // A threshold raised past the default maximum without setting one lands here too: say so.
      const unset = trimmed(env.DOORWATCH_DEADLOCK_MAX_MS) === undefined;
      throw new SettingsError([
        `DOORWATCH_DEADLOCK_MAX_MS: must be 0 or more than DOORWATCH_DEADLOCK_THRESHOLD_MS (${thresholdMs}) ` +
          (unset ? `(unset: its default is ${maxMs}; set it above the threshold, or 0)` : `(got "${maxMs}")`),
      ]);
    }
    const oidcProblems = oidcSettingProblems(parsed.data);
    if (oidcProblems.length > 0) throw new SettingsError(oidcProblems);
    return Object.freeze(parsed.data);
  }
  const problems = new Map<string, string>();
  for (const issue of parsed.error.issues) {
    const name = String(issue.path[0]) as SettingName;
    if (problems.has(name)) continue; // one line per bad value
    const raw = env[name] ?? '';
    const message = issue.message.startsWith(`${name} `) ? issue.message.slice(name.length + 1) : issue.message;
    problems.set(name, `${name}: ${message} (got ${JSON.stringify(SHOWN[name]?.(raw) ?? raw)})`);
  }
  throw new SettingsError([...problems.values()]);
}

const current = processSlot<Settings>('doorwatchSettings');

/** This process's settings, read from process.env once (start-up calls it first, so a bad value stops the start). */
export function settings(): Settings {
  let s = current.get();
  if (s === undefined) current.set((s = readSettings(process.env)));
  return s;
}

/** Re-reads process.env: for tests that change a setting in-process (a real process reads its settings once). */
export function reloadSettings(): Settings {
  current.set(undefined);
  return settings();
}

/** The deadlock threshold ingest summarizes with and queries judge by (DOORWATCH_DEADLOCK_THRESHOLD_MS). */
export const deadlockThresholdMs = (): number => settings().DOORWATCH_DEADLOCK_THRESHOLD_MS;

/** The longest a deadlock can last before it is "end unreported" (DOORWATCH_DEADLOCK_MAX_MS; 0 = no maximum). */
export const deadlockMaxMs = (): number => settings().DOORWATCH_DEADLOCK_MAX_MS;
