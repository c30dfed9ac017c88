// The dashboard's session list for an alert's window and server: where a notification and the
// Alerts page send people (global URL parameters of lib/ui/url-state: from, to, server).
export function sessionsPath(server: string | null, fromMs: number, toMs: number): string {
  const q = new URLSearchParams({ from: new Date(fromMs).toISOString(), to: new Date(toMs).toISOString() });
  if (server !== null) q.set('server', server);
  return `/sessions?${q}`;
}
