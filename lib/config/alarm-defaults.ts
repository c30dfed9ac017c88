// Client-safe (no process.env): the dashboard falls back to it before the settings arrive.
/** How long a condition must have cleared before the overview's alarm steps down (DOORWATCH_ALARM_HOLD_MS). */
export const DEFAULT_ALARM_HOLD_MS = 30_000;
