// The Node.js half of instrumentation.ts: settings, then the background work. Kept in its own
// module, imported only under NEXT_RUNTIME === 'nodejs', so the Edge build of instrumentation.ts
// never sees `process.exit` (Turbopack warned "A Node.js API is used … not supported in the Edge Runtime").
export async function registerNode() {
  // Validated before anything else runs, also when `next start` is run without scripts/start.ts.
  const { settings } = await import('./lib/config/settings');
  try {
    settings();
  } catch (err) {
    console.error(`doorwatch start failed: ${err instanceof Error ? err.message : err}`);
    process.exit(1);
  }
  // The steady clock anchors at its first reading: take it now, so a step of the host clock
  // after start is absorbed instead of being the clock's starting point.
  const { doorwatchNow } = await import('./lib/instance/doorwatch-clock');
  doorwatchNow();
  // Before the first request: a thread takes ~0.1 s to start.
  const { startIngestThreads } = await import('./lib/ingest/ingest-threads');
  startIngestThreads();
  const { startRetentionSchedule } = await import('./lib/retention/schedule');
  startRetentionSchedule();
  const { startProbeSchedule } = await import('./lib/probes/probe-schedule');
  startProbeSchedule();
  const { startAlertSchedule } = await import('./lib/alerts/alert-schedule');
  startAlertSchedule();
}
