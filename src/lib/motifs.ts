/**
 * What a photo shows. A photo's seed carries its motif (`seed % MOTIFS.length`), so the art,
 * which sees only the seed, draws the subject the title names; the generator picks the motif
 * first, then a title from that motif's nouns, then a seed that carries it.
 */

export const MOTIFS = [
  'cat',
  'bridge',
  'tree',
  'bird',
  'window',
  'street',
  'boat',
  'hill',
  'flower',
  'cup',
] as const;
export type Motif = (typeof MOTIFS)[number];

/** Title nouns: each names what the motif draws. */
export const MOTIF_NOUNS: Record<Motif, readonly string[]> = {
  cat: ['cat on a wall', 'sleeping cat', 'tabby', 'kitten'],
  bridge: ['old bridge', 'stone bridge', 'footbridge', 'river bridge'],
  tree: ['old oak', 'lone pine', 'birch', 'maple', 'cedar'],
  bird: ['gulls', 'swallows', 'heron', 'starlings', 'swifts'],
  window: ['lit window', 'open window', 'attic window', 'shop window'],
  street: ['side street', 'market street', 'main street', 'alley'],
  boat: ['sailboat', 'fishing boat', 'harbour boat', 'regatta'],
  hill: ['summit', 'ridge line', 'alpine pass', 'hills'],
  flower: ['poppies', 'tulips', 'wild flowers', 'meadow flowers'],
  cup: ['morning coffee', 'cup of tea', 'espresso', 'cocoa'],
};

/** What each subject tag's photos may show. */
export const SUBJECT_MOTIFS: Record<string, readonly Motif[]> = {
  'nature/trees': ['tree'],
  'nature/water': ['boat', 'bridge'],
  'nature/mountains': ['hill'],
  'nature/flowers': ['flower'],
  'city/streets': ['street'],
  'city/night': ['window', 'street'],
  'city/architecture': ['bridge', 'window'],
  'animals/birds': ['bird'],
  'animals/cats': ['cat'],
  food: ['cup'],
};

export function motifOf(seed: number): Motif {
  return MOTIFS[seed % MOTIFS.length]!;
}

/** A seed from `n` (any whole number from 0 to 2^31 / MOTIFS.length) that carries `motif`. */
export function seedWith(motif: Motif, n: number): number {
  return n * MOTIFS.length + MOTIFS.indexOf(motif);
}
