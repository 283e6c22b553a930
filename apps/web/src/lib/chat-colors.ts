/** Author name colours that stay readable on the dark theme. */

function hashString(value: string): number {
  let hash = 2166136261;
  for (let i = 0; i < value.length; i += 1) {
    hash ^= value.charCodeAt(i);
    hash = Math.imul(hash, 16777619);
  }
  return hash >>> 0;
}

/** A stable, light-enough colour for a name (hue from the name's hash). */
export function colorFromName(name: string): string {
  const hue = hashString(name.toLowerCase()) % 360;
  return `hsl(${hue} 70% 68%)`;
}

function parseHex(color: string): [number, number, number] | null {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color.trim());
  if (!m?.[1]) return null;
  const hex = m[1].length === 3 ? [...m[1]].map((c) => c + c).join('') : m[1];
  return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
}

function luminance([r, g, b]: [number, number, number]): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** Minimum contrast against the dark page background (#1a1b1e-ish, luminance ≈ 0.011). */
const MIN_LUMINANCE = 0.18;

/**
 * The colour to draw an author's name in: the platform's colour when it is a readable hex colour,
 * the same colour lightened when it is too dark, else one derived from the name.
 */
export function authorColor(name: string, color: string | null): string {
  if (!color) return colorFromName(name);
  const rgb = parseHex(color);
  if (!rgb) return colorFromName(name);
  if (luminance(rgb) >= MIN_LUMINANCE) return color;
  // Mix with white until readable.
  for (let t = 0.1; t <= 1; t += 0.1) {
    const mixed = rgb.map((c) => Math.round(c + (255 - c) * t)) as [number, number, number];
    if (luminance(mixed) >= MIN_LUMINANCE) return `rgb(${mixed.join(' ')})`;
  }
  return '#ffffff';
}
