// A server's name: what appears in the ingest URL and on the dashboard. Its own module because the browser
// needs it too (the annotation contract): lib/contract/server-secret.ts needs node:crypto, and importing it
// from the UI's side shipped Next's crypto, stream and buffer polyfills in every page's JavaScript.

/** Server names: what appears in the ingest URL and on the dashboard. */
export const SERVER_NAME = /^[a-z0-9-]{1,64}$/;
