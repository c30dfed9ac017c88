/** Chart colours per theme (kept in JS so SVG attributes get concrete values). Mirrors globals.css. */
export interface Palette {
  refused: string;
  naive: string;
  pending: string;
  dual: string;
  deadlock: string;
  reneg: string;
  drops: string;
  burned: string;
  sse: string;
  ws: string;
  grid: string;
  axis: string;
  text: string;
  muted: string;
  accent: string;
  cursor: string;
}

export const PALETTES: Record<'light' | 'dark', Palette> = {
  light: {
    refused: '#23834a',
    naive: '#c4302b',
    pending: '#c98a00',
    dual: '#7048c4',
    deadlock: '#c4302b',
    reneg: '#2563c9',
    drops: '#7a8591',
    burned: '#c4302b',
    sse: '#2563c9',
    ws: '#23834a',
    grid: '#e8ecf0',
    axis: '#c5ccd5',
    text: '#1a1f26',
    muted: '#5c6673',
    accent: '#2563c9',
    cursor: 'rgba(37, 99, 201, 0.08)',
  },
  dark: {
    refused: '#4fc283',
    naive: '#f26b62',
    pending: '#e3a63b',
    dual: '#a98bf0',
    deadlock: '#f26b62',
    reneg: '#6ea4ff',
    drops: '#8a95a3',
    burned: '#f26b62',
    sse: '#6ea4ff',
    ws: '#4fc283',
    grid: '#222a34',
    axis: '#36404d',
    text: '#dbe1e8',
    muted: '#95a0ad',
    accent: '#6ea4ff',
    cursor: 'rgba(110, 164, 255, 0.10)',
  },
};
