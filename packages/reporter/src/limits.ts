/** The ingest API's hard limits. */
export const MAX_EVENTS_PER_REQUEST = 1000;
export const MAX_BODY_BYTES = 1024 * 1024;
