// Bounds on sender-supplied JSON (an event's `data`), checked without recursion so that a value
// nested thousands of levels deep is refused as a data error instead of overflowing the stack
// in JSON.stringify later (which surfaced as 503 forever, or a 500 while dead-lettering).

/** Deepest nesting of objects/arrays allowed inside `data` (`{}` itself is depth 1). */
export const MAX_DATA_DEPTH = 32;
/** Largest `data` allowed, as serialized JSON (UTF-16 code units, i.e. JSON.stringify length). */
export const MAX_DATA_CHARS = 64 * 1024;

/** Nesting depth of a JSON value, iteratively; stops counting once past `limit`. */
export function jsonDepth(value: unknown, limit = MAX_DATA_DEPTH): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    deepest = Math.max(deepest, depth);
    if (deepest > limit) return deepest;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** Why `data` is out of bounds, or null when it is within them. */
export function dataBoundsProblem(data: unknown): string | null {
  if (jsonDepth(data) > MAX_DATA_DEPTH) return `nested deeper than ${MAX_DATA_DEPTH} levels`;
  const chars = JSON.stringify(data)?.length ?? 0;
  if (chars > MAX_DATA_CHARS) return `${chars} characters as JSON; at most ${MAX_DATA_CHARS} are accepted`;
  return null;
}

/**
 * A JSON preview of any value that never throws: nesting past `maxDepth` becomes the string
 * "[…]", and the text is cut at `maxChars`. For dead letters, which keep whatever a sender
 * posted, however hostile.
 */
export function jsonPreview(value: unknown, maxDepth = MAX_DATA_DEPTH, maxChars = MAX_DATA_CHARS): string {
  const cut = (v: unknown, depth: number): unknown => {
    if (typeof v !== 'object' || v === null) return v;
    if (depth >= maxDepth) return '[…]';
    if (Array.isArray(v)) return v.map((x) => cut(x, depth + 1));
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, cut(x, depth + 1)]));
  };
  let text: string;
  try {
    text = JSON.stringify(cut(value, 0)) ?? String(value);
  } catch (err) {
    text = `unserializable: ${err instanceof Error ? err.message : String(err)}`;
  }
  return text.length > maxChars ? `${text.slice(0, maxChars)}…` : text;
}
