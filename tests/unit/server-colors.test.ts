// Split-by-server charts: a server's colour must never read as an outcome. Each server colour is
// perceptibly apart (CIEDE2000) from every meaning colour of its theme and from the other server
// colours, and visible against the panel (WCAG 1.4.11: 3:1 for graphics).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PALETTES, SERVER_COLORS } from '@/lib/ui/palette';

type Lab = [number, number, number];

function linear(hex: string): [number, number, number] {
  const [r, g, b] = [1, 3, 5]
    .map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((v) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
  return [r, g, b];
}

function lab(hex: string): Lab {
  const [r, g, b] = linear(hex);
  // sRGB → XYZ (D65) → CIELAB.
  const x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
  const y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  const z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
  const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : ((24389 / 27) * t + 16) / 116);
  return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))];
}

/** CIEDE2000 colour difference (Sharma, Wu and Dalal's formulation): ~2 is just noticeable, 10+ clearly another colour. */
function deltaE2000(c1: string, c2: string): number {
  const [L1, a1, b1] = lab(c1);
  const [L2, a2, b2] = lab(c2);
  const rad = Math.PI / 180;
  const Cb = (Math.hypot(a1, b1) + Math.hypot(a2, b2)) / 2;
  const G = 0.5 * (1 - Math.sqrt(Cb ** 7 / (Cb ** 7 + 25 ** 7)));
  const [a1p, a2p] = [(1 + G) * a1, (1 + G) * a2];
  const [C1p, C2p] = [Math.hypot(a1p, b1), Math.hypot(a2p, b2)];
  const hue = (a: number, b: number) => (a === 0 && b === 0 ? 0 : (Math.atan2(b, a) / rad + 360) % 360);
  const [h1p, h2p] = [hue(a1p, b1), hue(a2p, b2)];
  let dh = h2p - h1p;
  if (C1p * C2p === 0) dh = 0;
  else if (dh > 180) dh -= 360;
  else if (dh < -180) dh += 360;
  const dL = L2 - L1;
  const dC = C2p - C1p;
  const dH = 2 * Math.sqrt(C1p * C2p) * Math.sin((dh / 2) * rad);
  const Lb = (L1 + L2) / 2;
  const Cbp = (C1p + C2p) / 2;
  let hb = h1p + h2p;
  if (C1p * C2p !== 0) hb = Math.abs(h1p - h2p) > 180 ? (h1p + h2p + (h1p + h2p < 360 ? 360 : -360)) / 2 : (h1p + h2p) / 2;
  const T =
    1 -
    0.17 * Math.cos((hb - 30) * rad) +
    0.24 * Math.cos(2 * hb * rad) +
    0.32 * Math.cos((3 * hb + 6) * rad) -
    0.2 * Math.cos((4 * hb - 63) * rad);
  const dTheta = 30 * Math.exp(-(((hb - 275) / 25) ** 2));
  const Rc = 2 * Math.sqrt(Cbp ** 7 / (Cbp ** 7 + 25 ** 7));
  const SL = 1 + (0.015 * (Lb - 50) ** 2) / Math.sqrt(20 + (Lb - 50) ** 2);
  const SC = 1 + 0.045 * Cbp;
  const SH = 1 + 0.015 * Cbp * T;
  const RT = -Math.sin(2 * dTheta * rad) * Rc;
  return Math.sqrt((dL / SL) ** 2 + (dC / SC) ** 2 + (dH / SH) ** 2 + RT * (dC / SC) * (dH / SH));
}

function contrast(c1: string, c2: string): number {
  const lum = (hex: string) => {
    const [r, g, b] = linear(hex);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [hi, lo] = [lum(c1), lum(c2)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

const PANEL = { light: '#ffffff', dark: '#151a21' };
const MEANING = ['refused', 'naive', 'pending', 'dual', 'deadlock', 'reneg', 'drops', 'burned', 'sse', 'ws'] as const;

test('deltaE2000 gives the known values: identical 0, sRGB red/green 86.6, black/white 100', () => {
  assert.equal(deltaE2000('#336699', '#336699'), 0);
  assert.ok(Math.abs(deltaE2000('#ff0000', '#00ff00') - 86.6) < 1, String(deltaE2000('#ff0000', '#00ff00')));
  assert.ok(Math.abs(deltaE2000('#000000', '#ffffff') - 100) < 0.01);
});

for (const theme of ['light', 'dark'] as const)
  test(`${theme}: no server colour is near a meaning colour, another server colour, or the panel`, () => {
    const pal = PALETTES[theme];
    const colours = SERVER_COLORS[theme];
    assert.equal(colours.length, SERVER_COLORS.light.length);
    const problems: string[] = [];
    for (const [i, c] of colours.entries()) {
      for (const m of MEANING) {
        const d = deltaE2000(c, pal[m]);
        if (d < 15) problems.push(`server ${c} is ΔE ${d.toFixed(1)} from ${m} ${pal[m]}`);
      }
      for (const o of colours.slice(i + 1)) {
        const d = deltaE2000(c, o);
        if (d < 12) problems.push(`server ${c} is ΔE ${d.toFixed(1)} from server ${o}`);
      }
      const r = contrast(c, PANEL[theme]);
      if (r < 3) problems.push(`server ${c} is ${r.toFixed(2)}:1 against the panel`);
    }
    assert.deepEqual(problems, []);
  });

test('the check fails for the colours that collided (the naive server in the purple of dual negotiations)', () => {
  assert.ok(deltaE2000('#8b3fd9', PALETTES.light.dual) < 15);
  assert.ok(deltaE2000('#d97706', PALETTES.light.pending) < 15);
});
