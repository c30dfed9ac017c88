/** Chart colours per theme (kept in JS so SVG attributes get concrete values). Mirrors globals.css. */
export interface Palette {
  refused: string;
  naive: string;
  pending: string;
  /** The pending amber dark enough for text (4.5:1 on the panel; the bar colour is not): --warn. */
  pendingText: string;
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
    pendingText: '#955f00',
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
    pendingText: '#e3a63b',
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

/**
 * Series colours for charts split by server, in both themes: teal, magenta, olive, brown, cyan, pink.
 * The meaning colours above (red naive, green refused, amber unanswered, violet dual, blue
 * renegotiated, grey drops) say what happened, so a server never wears one: each server colour is at
 * least ΔE2000 15 from every meaning colour, 12 from the other server colours, and 3:1 against the
 * panel (tests/unit/server-colors.test.ts). Slot i is the same hue in both themes.
 */
export const SERVER_COLORS: Record<'light' | 'dark', readonly string[]> = {
  light: ['#0e7c86', '#b8327f', '#6b7d12', '#7a4b26', '#1b98b4', '#d86aa9'],
  dark: ['#2bb8b0', '#e36bc0', '#c9cf4a', '#b9835a', '#6fd6e8', '#f7a8d0'],
};

/** The "other" series (servers beyond the top few). */
export const OTHER_COLOR: Record<'light' | 'dark', string> = { light: '#9aa4b0', dark: '#5d6875' };

function nameHash(name: string): number {
  // FNV-1a: the same name always starts at the same colour, across charts, pages and reloads.
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * Colour slot per server: each name's own slot from its hash, and on a clash among the servers
 * shown together the next free slot, names taken in sorted order (so the same set always gets
 * the same colours, whichever chart draws it).
 */
export function serverColorSlots(names: readonly string[]): Map<string, number> {
  const n = SERVER_COLORS.light.length;
  const out = new Map<string, number>();
  const taken = new Set<number>();
  for (const name of [...new Set(names)].sort()) {
    let slot = nameHash(name) % n;
    for (let i = 0; i < n && taken.has(slot); i++) slot = (slot + 1) % n;
    if (taken.size < n) taken.add(slot);
    out.set(name, slot);
  }
  return out;
}
