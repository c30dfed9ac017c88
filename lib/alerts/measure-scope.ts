/** What a measure is computed over: [fromMs, toMs) and one server or all (null). */
export interface MeasureScope {
  fromMs: number;
  toMs: number;
  server: string | null;
}
