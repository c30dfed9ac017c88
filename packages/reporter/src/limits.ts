/** The ingest API's hard limits. */
export const MAX_EVENTS_PER_REQUEST = 1000;
export const MAX_BODY_BYTES = 1024 * 1024;
/** The server version a batch may name (the ingest envelope's `version`). */
export const VERSION_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._+:/-]{0,63}$/;
