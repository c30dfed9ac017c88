// What the alert machinery tells the operator's log, in one place (the structured logger replaces
// console here). Never a secret: contact points are named by name and id, not URL.
export const alertLog = {
  transition: (rule: string, kind: string, value: number | null) =>
    console.log(`[doorwatch] alert "${rule}" ${kind} (value ${value ?? 'no data'})`),
  measureFailed: (rule: string, err: unknown) =>
    console.error(`[doorwatch] alert "${rule}": measuring failed (will retry): ${err instanceof Error ? err.message.split('\n')[0] : err}`),
  deliveryFailed: (id: string, contactPoint: string, error: string, final: boolean) =>
    console.error(
      `[doorwatch] alert notification ${id} to "${contactPoint}" ${final ? 'failed for good' : 'failed (will retry)'}: ${error}`,
    ),
  runFailed: (err: unknown) =>
    console.error(`[doorwatch] alert evaluation failed (will retry): ${err instanceof Error ? err.message.split('\n')[0] : err}`),
};
