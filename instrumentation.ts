// Next.js start-up hook (once per server process). Background work lives here, Node.js runtime only.
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { startRetentionSchedule } = await import('./lib/retention/schedule');
  startRetentionSchedule();
}
