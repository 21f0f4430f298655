/**
 * The demo's six photographers. Each one shoots a few subjects (tag paths), which is what the
 * photo generator draws from, so every profile looks like one person's work.
 */
import type { User } from './types';

interface Photographer extends User {
  subjects: readonly string[];
}

const PHOTOGRAPHERS: readonly Photographer[] = [
  {
    handle: 'ada',
    name: 'Ada Lindqvist',
    bio: 'Forests and fog on a 35 mm prime. Based in Stockholm.',
    hue: 150,
    subjects: ['nature/trees', 'nature/water', 'nature/flowers'],
  },
  {
    handle: 'kenji',
    name: 'Kenji Mori',
    bio: 'Night walks, neon and the last train home in Osaka.',
    hue: 265,
    subjects: ['city/night', 'city/streets', 'food'],
  },
  {
    handle: 'mira',
    name: 'Mira Castell',
    bio: 'Mountain guide who carries a camera up every ridge.',
    hue: 205,
    subjects: ['nature/mountains', 'nature/water', 'nature/trees'],
  },
  {
    handle: 'tomas',
    name: 'Tomás Ferreira',
    bio: 'Coastlines, bridges and old stone. Porto, mostly.',
    hue: 20,
    subjects: ['city/architecture', 'nature/water', 'city/streets'],
  },
  {
    handle: 'noor',
    name: 'Noor Haddad',
    bio: 'Street and market photography. Always looking for good light.',
    hue: 330,
    subjects: ['city/streets', 'food', 'city/architecture'],
  },
  {
    handle: 'lena',
    name: 'Lena Okafor',
    bio: 'Birds, cats and breakfast. Mostly breakfast.',
    hue: 45,
    subjects: ['animals/birds', 'animals/cats', 'food'],
  },
];

const BY_HANDLE = new Map(PHOTOGRAPHERS.map((p) => [p.handle, toUser(p)]));

function toUser({ handle, name, bio, hue }: Photographer): User {
  return { handle, name, bio, hue };
}

export function listUsers(): User[] {
  return [...BY_HANDLE.values()];
}

export function getUser(handle: string): User | undefined {
  return BY_HANDLE.get(handle);
}

/** The tag paths a photographer's photos are drawn from (for the generator). */
export function subjectsOf(handle: string): readonly string[] {
  return PHOTOGRAPHERS.find((p) => p.handle === handle)?.subjects ?? [];
}
