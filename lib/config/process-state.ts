// Process-wide state: one value per key for the whole process (per thread, for a worker thread).
// It lives on globalThis, not in a module variable, because Next bundles each route into its own
// copy of a module and `next dev` re-evaluates a module on every edit: a module variable would give
// each copy, and each reload, its own database pool, timer or registry. The keys are the
// `doorwatch…` names these values always had, so a dev server keeps what it opened across a reload.

const slots = globalThis as unknown as Record<string, unknown>;

/** The process's one value for `key`, created on first use (null is a value: "decided, none"). */
export function processSingleton<T>(key: string, create: () => T): T {
  if (slots[key] === undefined) slots[key] = create();
  return slots[key] as T;
}

/** A process-wide cell for state that is replaced or cleared (settings re-read in tests, a closed pool). */
export interface ProcessSlot<T> {
  get(): T | undefined;
  set(value: T | undefined): void;
}

export function processSlot<T>(key: string): ProcessSlot<T> {
  return {
    get: () => slots[key] as T | undefined,
    set: (value) => {
      slots[key] = value;
    },
  };
}
