export interface LayerRow {
  rank: number;
  layer: string;
  places: string[];
  except: string[];
  nothing: boolean;
}
export const ROOT: string;
export const ARCHITECTURE: string;
export function parseLayerTable(markdown: string): LayerRow[];
export function readLayerTable(path?: string): LayerRow[];
export function rowOf(rows: LayerRow[], path: string): { row: LayerRow; place: string } | null;
