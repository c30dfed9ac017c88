// Next.js start-up hook (once per server process). Background work lives here, Node.js runtime only.
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return; // (Next's own variable, not a Doorwatch setting)
  // Validated before anything else runs, also when `next start` is run without scripts/start.ts.
  const { settings } = await import('./lib/config/settings');
  try {
    settings();
  } catch (err) {
    console.error(`doorwatch start failed: ${err instanceof Error ? err.message : err}`);
    process.exit(1);
  }
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
