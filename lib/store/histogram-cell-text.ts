// The text form of histogram cells between SQL and JS: the histogram read (rollups.ts histogramSums)
// aggregates each series bucket's cells as "bucket:count,…" (group_concat / string_agg).
/**
 * Adds "bucket:count,…" (integers, either may be negative) into counts. Parsed by character rather
 * than split and sliced: a day's read at 10M events carries ~11k cells, which split and Number()
 * parsed in ~1.4 ms and this in ~0.55 ms.
 */
export function addCellText(counts: Map<number, number>, text: string): void {
  let bucket = 0;
  let value = 0;
  let negative = false;
  let inCount = false;
  let digits = false;
  const end = () => {
    if (inCount && digits) {
      const count = negative ? -value : value;
      counts.set(bucket, (counts.get(bucket) ?? 0) + count);
    }
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      value = value * 10 + (c - 48);
      digits = true;
    } else if (c === 45) negative = true;
    else if (c === 58) {
      bucket = negative ? -value : value;
      inCount = true;
      value = 0;
      negative = false;
      digits = false;
    } else if (c === 44) {
      end();
      inCount = false;
      value = 0;
      negative = false;
      digits = false;
    }
  }
  end();
}
