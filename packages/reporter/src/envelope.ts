// The request body, built by hand from events serialised once at report() time:
// `{"events":[…],"reporter":{"instance":…,"dropped":n,"failed":n},"instance":…,"version":…}`.
import type { ReporterStatus } from './event.js';

const BODY_PREFIX = '{"events":[';
// Room for the longest suffix (loss counts, instance, version) is kept in every size check.
const BODY_SUFFIX_MAX = '],"reporter":{"instance":"","dropped":,"failed":},"instance":"","version":""}'.length + 2 * 128 + 2 * 16 + 64;

/** Bytes a body holds besides its events (and the commas between them). */
export const BODY_OVERHEAD = BODY_PREFIX.length + BODY_SUFFIX_MAX;

/** The batch's events, the loss counts, and the server's instance and version (when configured). */
export function buildBody(eventJson: readonly string[], status: ReporterStatus, version?: string): string {
  const origin = `,"instance":${JSON.stringify(status.instance)}${version === undefined ? '' : `,"version":${JSON.stringify(version)}`}`;
  return `${BODY_PREFIX}${eventJson.join(',')}],"reporter":${JSON.stringify(status)}${origin}}`;
}
