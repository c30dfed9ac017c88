// The request body, built by hand from events serialised once at report() time:
// `{"events":[…],"reporter":{"instance":…,"dropped":n,"failed":n}}`.
import type { ReporterStatus } from './event.js';

const BODY_PREFIX = '{"events":[';
// Room for the longest loss-count suffix is kept in every size check.
const BODY_SUFFIX_MAX = '],"reporter":{"instance":"","dropped":,"failed":}}'.length + 128 + 2 * 16;

/** Bytes a body holds besides its events (and the commas between them). */
export const BODY_OVERHEAD = BODY_PREFIX.length + BODY_SUFFIX_MAX;

export function buildBody(eventJson: readonly string[], status: ReporterStatus): string {
  return `${BODY_PREFIX}${eventJson.join(',')}],"reporter":${JSON.stringify(status)}}`;
}
