// Next.js start-up hook (once per server process). Background work lives in instrumentation-node.ts,
// Node.js runtime only: the condition is the form Next replaces at build time, so the Edge
// bundle drops the import (and the Node.js APIs behind it).
export async function register() {
  // (NEXT_RUNTIME is Next's own variable, not a Doorwatch setting.)
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { registerNode } = await import('./instrumentation-node');
    await registerNode();
  }
}
