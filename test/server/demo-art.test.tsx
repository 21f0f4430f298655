/**
 * The demo's pictures match their titles: a photo's seed carries its motif, the title names that
 * motif, and the art drawn from the seed alone shows it. Drawn the same every time, small, and
 * with nothing to load.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { expect, test } from 'vitest';
import { PhotoArt } from '../../src/components/photo-art';
import { MOTIF_NOUNS, MOTIFS, motifOf, seedWith, SUBJECT_MOTIFS } from '../../src/lib/motifs';
import { listPhotos } from '../../src/lib/photos';

const draw = (seed: number) => renderToStaticMarkup(<PhotoArt seed={seed} />);
const LABELS: Record<string, RegExp> = {
  cat: /a cat/,
  bridge: /a bridge/,
  tree: /a tree/,
  bird: /birds/,
  window: /a lit window/,
  street: /a street/,
  boat: /a sailboat/,
  hill: /mountains/,
  flower: /flowers/,
  cup: /a cup/,
};

test.each(MOTIFS.map((motif) => [motif, seedWith(motif, 12_345)] as const))(
  'a seed made for %s carries it',
  (motif, seed) => {
    expect(motifOf(seed)).toBe(motif);
    expect(seed).toBeLessThan(2 ** 31);
  },
);

test('every photo: its title names what its seed draws, a motif of its subject tag', () => {
  const photos = listPhotos();
  expect(photos).toHaveLength(36);
  for (const photo of photos) {
    const motif = motifOf(photo.seed);
    expect(SUBJECT_MOTIFS[photo.tags[0]!], photo.title).toContain(motif);
    expect(
      MOTIF_NOUNS[motif].some((noun) => photo.title.endsWith(` ${noun}`)),
      photo.title,
    ).toBe(true);
    expect(draw(photo.seed), photo.title).toMatch(
      new RegExp(`aria-label="Generated art: [^"]*${LABELS[motif]!.source}`),
    );
  }
  // Several motifs, not one picture over and over.
  expect(new Set(photos.map((p) => motifOf(p.seed))).size).toBeGreaterThanOrEqual(8);
});

test('the art: the same for the same seed, no image, no link, under 700 bytes each', () => {
  for (const { seed } of listPhotos()) {
    const svg = draw(seed);
    expect(draw(seed)).toBe(svg);
    expect(svg).not.toMatch(/<image|href=|url\((?!#)/);
    expect(svg.length).toBeLessThan(700);
  }
});
