// Options → validated settings with defaults. Bad options throw at createReporter(), never later.
import { INSTANCE_PATTERN, defaultInstance, newMessageId } from './ids.js';
import { MAX_BODY_BYTES, MAX_EVENTS_PER_REQUEST, VERSION_PATTERN } from './limits.js';
import type { FetchLike, ReporterOptions } from './types.js';

export type Config = Required<Omit<ReporterOptions, 'onError' | 'onDrop' | 'fetch' | 'version'>> &
  Pick<ReporterOptions, 'onError' | 'onDrop' | 'version'> & { fetch: FetchLike };

function positiveInt(name: string, value: number, min = 1, max = Number.MAX_SAFE_INTEGER): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`createReporter: ${name} must be an integer in [${min}, ${max}], got ${value}`);
  }
  return value;
}

export function resolveConfig(o: ReporterOptions): Config {
  let base: URL;
  try {
    base = new URL(o.url);
  } catch {
    throw new TypeError(`createReporter: url is not a valid URL: ${String(o.url)}`);
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') {
    throw new TypeError('createReporter: url must be http(s)');
  }
  if (typeof o.server !== 'string' || o.server === '') throw new TypeError('createReporter: server is required');
  if (typeof o.secret !== 'string' || o.secret === '') throw new TypeError('createReporter: secret is required');
  const fetchImpl = o.fetch ?? (globalThis.fetch as FetchLike | undefined);
  if (typeof fetchImpl !== 'function') throw new TypeError('createReporter: no global fetch; pass options.fetch');

  const cfg: Config = {
    url: base.toString(),
    server: o.server,
    secret: o.secret,
    maxBatchSize: positiveInt('maxBatchSize', o.maxBatchSize ?? 500, 1, MAX_EVENTS_PER_REQUEST),
    maxBatchBytes: positiveInt('maxBatchBytes', o.maxBatchBytes ?? 1_000_000, 64, MAX_BODY_BYTES),
    flushIntervalMs: positiveInt('flushIntervalMs', o.flushIntervalMs ?? 200, 0),
    maxBufferedEvents: positiveInt('maxBufferedEvents', o.maxBufferedEvents ?? 10_000),
    maxRetries: positiveInt('maxRetries', o.maxRetries ?? 8, 0),
    retryDeadlineMs: o.retryDeadlineMs ?? 5 * 60_000,
    baseBackoffMs: positiveInt('baseBackoffMs', o.baseBackoffMs ?? 500, 0),
    maxBackoffMs: positiveInt('maxBackoffMs', o.maxBackoffMs ?? 30_000, 0),
    requestTimeoutMs: positiveInt('requestTimeoutMs', o.requestTimeoutMs ?? 10_000),
    closeTimeoutMs: positiveInt('closeTimeoutMs', o.closeTimeoutMs ?? 10_000, 0),
    fetch: fetchImpl,
    onError: o.onError,
    onDrop: o.onDrop,
    idFactory: o.idFactory ?? newMessageId,
    instance: o.instance ?? defaultInstance(),
    version: o.version,
    random: o.random ?? Math.random,
  };
  if (!(cfg.retryDeadlineMs > 0)) throw new RangeError('createReporter: retryDeadlineMs must be > 0');
  if (!INSTANCE_PATTERN.test(cfg.instance)) throw new TypeError(`createReporter: instance must match ${INSTANCE_PATTERN}`);
  if (cfg.version !== undefined && (typeof cfg.version !== 'string' || !VERSION_PATTERN.test(cfg.version))) {
    throw new TypeError(`createReporter: version must match ${VERSION_PATTERN}`);
  }
  if (cfg.maxBufferedEvents < cfg.maxBatchSize) {
    throw new RangeError('createReporter: maxBufferedEvents must be >= maxBatchSize');
  }
  return cfg;
}

/** `<url>/api/v1/ingest/<server>`, keeping any path prefix of the base URL. */
export function ingestEndpoint(cfg: Pick<Config, 'url' | 'server'>): string {
  const base = cfg.url.endsWith('/') ? cfg.url : `${cfg.url}/`;
  return new URL(`api/v1/ingest/${encodeURIComponent(cfg.server)}`, base).toString();
}
