/**
 * Generated artwork: a small SVG drawn from a seed, so the demo needs no image files and no
 * network. The seed carries the photo's motif (`lib/motifs.ts`), so the picture shows what the
 * title names: a sky, a sun, a backdrop, and the subject as a silhouette with lit details. The
 * same seed draws the same picture on the server and in the browser. Each one is about 600
 * bytes of HTML, because the feed renders 36 of them.
 */
import { useId } from 'react';
import { motifOf, type Motif } from '../lib/motifs';
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
      <path d={art.scene.backdrop} fill={art.ground} />
      {art.scene.lit && <path d={art.scene.lit} fill={art.light} />}
      <path d={art.scene.subject} fill={art.dark} />
    </svg>
  );
}

/** What the label says each motif shows. */
const MOTIF_LABELS: Record<Motif, string> = {
  cat: 'a cat on a wall',
  bridge: 'a bridge over water',
  tree: 'a tree on a hill',
  bird: 'birds over hills',
  window: 'a lit window',
  street: 'a street between houses',
  boat: 'a sailboat on the water',
  hill: 'mountains',
  flower: 'flowers in a meadow',
  cup: 'a cup on a table',
};

type Int = (min: number, max: number) => number;

/** A scene's three layers: the backdrop behind, the lit details, the subject's silhouette on top. */
interface Scene {
  backdrop: string;
  lit: string;
  subject: string;
}

function drawArt(seed: number) {
  const random = createRandom(seed);
  const hue = random.int(0, 359);
  const groundHue = (hue + random.int(20, 140)) % 360;
  const motif = motifOf(seed);
  return {
    label: `Generated art: ${MOTIF_LABELS[motif]} under ${withArticle(hueName(hue))} sky`,
    sky: [hsl(hue, 70, 78), hsl((hue + 40) % 360, 60, 52)],
    sun: {
      x: random.int(14, 106),
      y: random.int(12, 30),
      r: random.int(6, 12),
      color: hsl((hue + 180) % 360, 90, 86),
    },
    ground: hsl(groundHue, 35, 42),
    light: motif === 'flower' ? hsl((hue + 150) % 360, 85, 62) : hsl(45, 95, 86),
    dark: hsl(groundHue, 30, 16),
    scene: SCENES[motif](random.int),
  } as const;
}

/**
 * Each motif's drawing in a 120 × 90 box, ground at about y 70. Paths are relative after their
 * first point, so a subject moves by its first coordinates alone. The shapes of one path all
 * turn clockwise: under the nonzero fill rule, one turning the other way would cut a hole.
 */
const SCENES: Record<Motif, (int: Int) => Scene> = {
  cat(int) {
    const x = int(30, 70);
    return {
      backdrop: 'M0 70H120V90H0Z',
      lit: '',
      subject:
        `M${x} 70a10 14 0 0 1 20 0zM${x + 4} 52a6 6 0 1 1 12 0a6 6 0 1 1-12 0` +
        `M${x + 5} 50l1-8 4 4zm10 0l-5-4 4-4zM${x + 18} 68c6 0 6 8 4 14h-2c2-6 2-10-3-11z`,
    };
  },
  bridge(int) {
    const y = int(40, 50);
    return {
      backdrop: 'M0 66H120V90H0Z',
      lit: `M10 ${y - 6}h2v6h-2zm24 0h2v6h-2zm24 0h2v6h-2zm24 0h2v6h-2zm24 0h2v6h-2z`,
      subject: `M0 ${y}H120V66H112Q112 ${y + 6} 88 ${y + 6}T64 66H56Q56 ${y + 6} 32 ${y + 6}T8 66H0Z`,
    };
  },
  tree(int) {
    const x = int(36, 84);
    const h = int(66, 74);
    return {
      backdrop: `M0 ${h}Q60 ${h - 12} 120 ${h}V90H0Z`,
      lit: '',
      subject: `M${x - 3} ${h}V46h6v${h - 46}zM${x - 18} 38a18 16 0 1 1 36 0a18 16 0 1 1-36 0`,
    };
  },
  bird(int) {
    let subject = '';
    for (let i = 0; i < 3; i++) {
      const s = int(2, 4) / 2;
      subject += `M${int(8, 96)} ${int(14, 48)}q${3 * s}-${4 * s} ${6 * s} 0q${3 * s}-${4 * s} ${6 * s} 0q-${3 * s}-${2 * s}-${6 * s} ${s}q-${3 * s}-${3 * s}-${6 * s}-${s}z`;
    }
    return { backdrop: hills(int(60, 68), int), lit: '', subject };
  },
  window(int) {
    const [w, h] = [int(30, 40), int(36, 46)];
    const [x, y] = [60 - w / 2, int(18, 24)];
    return {
      backdrop: 'M14 8H106V90H14Z',
      lit: `M${x} ${y}h${w}v${h}h-${w}z`,
      subject: `M${x + w / 2 - 1} ${y}h2v${h}h-2zM${x} ${y + h / 2 - 1}h${w}v2h-${w}zM${x - 4} ${y + h}h${w + 8}v4h-${w + 8}z`,
    };
  },
  street(int) {
    const v = int(44, 52);
    return {
      backdrop: `M0 90L56 ${v}h8L120 90Z`,
      lit: `M59 80h2v8h-2zm0-16h1.5v5h-1.5zM8 ${v - 14}h6v8H8zm14 8h5v7h-5zM106 ${v - 14}h6v8h-6zm-13 8h5v7h-5z`,
      subject: `M0 8L50 ${v - 4}V${v + 16}L0 90ZM120 12L70 ${v - 4}V${v + 16}L120 90Z`,
    };
  },
  boat(int) {
    const x = int(24, 60);
    return {
      backdrop: waves(int(60, 64), int),
      lit: `M${x + 19} 62V28l16 34zM${x + 16} 62V34L${x + 3} 62z`,
      subject: `M${x} 64h36l-6 8H${x + 6}zM${x + 16} 64V26h3v38z`,
    };
  },
  hill(int) {
    const peak = int(18, 30);
    return {
      backdrop: `M0 62L22 ${peak + 18} 38 ${peak + 28} 62 ${peak} 86 ${peak + 22} 100 ${peak + 14} 120 56V90H0Z`,
      lit: `M62 ${peak}l-7 8 4-1 3 3 3-3 4 1z`,
      subject: hills(int(70, 76), int),
    };
  },
  flower(int) {
    let [lit, subject] = ['', ''];
    for (const x of [int(20, 40), int(52, 68), int(80, 100)]) {
      const y = int(36, 56);
      subject += `M${x - 1} 90V${y}h2V90z`;
      lit += `M${x - 7} ${y}a7 7 0 1 0 14 0a7 7 0 1 0-14 0`;
    }
    return { backdrop: 'M0 70Q60 60 120 70V90H0Z', lit, subject };
  },
  cup(int) {
    const x = int(30, 60);
    return {
      backdrop: 'M0 70H120V90H0Z',
      lit: `M${x} 44h32l-4 26H${x + 4}zM${x + 32} 50a7 7 0 0 1 0 14v-4a3 3 0 0 0 0-6zM${x - 8} 70h48l-4 4H${x - 4}z`,
      subject: `M${x + 1} 44h30l-.5 3H${x + 1.5}z`,
    };
  },
};

/** Rolling hills from edge to edge around height `y`, filled down to the bottom. */
function hills(y: number, int: Int): string {
  return `M0 ${y + int(-6, 6)}Q30 ${y - int(6, 16)} 60 ${y + int(-4, 4)}T120 ${y + int(-6, 6)}V90H0Z`;
}

/** Waves from edge to edge at height `y`, filled down to the bottom. */
function waves(y: number, int: Int): string {
  const swell = int(2, 4);
  return `M0 ${y}Q10 ${y - swell} 20 ${y}T40 ${y}T60 ${y}T80 ${y}T100 ${y}T120 ${y}V90H0Z`;
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
