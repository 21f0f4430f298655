/**
 * Generated artwork: a small SVG drawn from a seed (a gradient sky, a sun and two layers of
 * landscape), so the demo needs no image files and no network. The same seed draws the same
 * picture on the server and in the browser. Each one is about 500 bytes of HTML, because the
 * feed renders 36 of them.
 */
import { useId } from 'react';
import { createRandom } from '../lib/random';

export interface PhotoArtProps {
  seed: number;
  className?: string;
}

export function PhotoArt({ seed, className }: PhotoArtProps) {
  // The gradient needs an id unique in the document, and the same one on both sides.
  const gradientId = useId();
  const art = drawArt(seed);
  return (
    <svg
      viewBox="0 0 120 90"
      role="img"
      aria-label={art.label}
      className={className === undefined ? 'art' : `art ${className}`}
    >
      <linearGradient id={gradientId} x2="0" y2="1">
        <stop stopColor={art.sky[0]} />
        <stop offset="1" stopColor={art.sky[1]} />
      </linearGradient>
      <rect width="120" height="90" fill={`url(#${gradientId})`} />
      <circle cx={art.sun.x} cy={art.sun.y} r={art.sun.r} fill={art.sun.color} />
      <path d={art.far} fill={art.ground[0]} />
      <path d={art.near} fill={art.ground[1]} />
    </svg>
  );
}

type Motif = 'hills' | 'waves' | 'skyline';
const MOTIFS: readonly Motif[] = ['hills', 'waves', 'skyline'];
const MOTIF_NAMES: Record<Motif, string> = { hills: 'hills', waves: 'waves', skyline: 'a skyline' };

function drawArt(seed: number) {
  const random = createRandom(seed);
  const hue = random.int(0, 359);
  const groundHue = (hue + random.int(20, 140)) % 360;
  const motif = random.pick(MOTIFS);
  const horizon = random.int(48, 62);
  return {
    label: `Generated art: ${MOTIF_NAMES[motif]} under ${withArticle(hueName(hue))} sky`,
    sky: [hsl(hue, 70, 78), hsl((hue + 40) % 360, 60, 52)],
    sun: {
      x: random.int(14, 106),
      y: random.int(12, 38),
      r: random.int(6, 15),
      color: hsl((hue + 180) % 360, 90, 86),
    },
    ground: [hsl(groundHue, 35, 42), hsl(groundHue, 40, 24)],
    far: outline(motif, horizon, random.int),
    near: outline(motif === 'skyline' ? 'hills' : motif, horizon + random.int(12, 18), random.int),
  } as const;
}

/** A closed path from the left edge to the right edge, around height `y`, filled down to the bottom. */
function outline(motif: Motif, y: number, int: (min: number, max: number) => number): string {
  switch (motif) {
    case 'hills':
      return `M0 ${y + int(-6, 6)}Q30 ${y - int(6, 16)} 60 ${y + int(-4, 4)}T120 ${y + int(-6, 6)}V90H0Z`;
    case 'waves': {
      const swell = int(3, 6);
      return `M0 ${y}Q10 ${y - swell} 20 ${y}T40 ${y}T60 ${y}T80 ${y}T100 ${y}T120 ${y}V90H0Z`;
    }
    case 'skyline': {
      let d = 'M0 90';
      for (let x = 0; x < 120;) {
        const width = int(10, 20);
        d += `V${y - int(0, 22)}H${Math.min(120, x + width)}`;
        x += width;
      }
      return `${d}V90Z`;
    }
  }
}

function hsl(hue: number, saturation: number, lightness: number): string {
  return `hsl(${hue},${saturation}%,${lightness}%)`;
}

const HUE_NAMES: readonly [number, string][] = [
  [15, 'red'],
  [45, 'orange'],
  [70, 'yellow'],
  [165, 'green'],
  [195, 'teal'],
  [255, 'blue'],
  [290, 'violet'],
  [340, 'pink'],
  [360, 'red'],
];

function withArticle(word: string): string {
  return /^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`;
}

function hueName(hue: number): string {
  return HUE_NAMES.find(([end]) => hue < end)?.[1] ?? 'red';
}
