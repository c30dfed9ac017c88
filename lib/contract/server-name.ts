// A server's name: what appears in the ingest URL and on the dashboard. Its own module because the browser
// needs it too (the annotation contract): lib/contract/server-secret.ts needs node:crypto, and importing it
// from the UI's side shipped Next's crypto, stream and buffer polyfills in every page's JavaScript.

/** The pattern alone, as an HTML input's `pattern` attribute takes it (anchored by the browser). */
export const SERVER_NAME_PATTERN = '[a-z0-9-]{1,64}';

/** Server names: what appears in the ingest URL and on the dashboard. */
export const SERVER_NAME = new RegExp(`^${SERVER_NAME_PATTERN}$`);
