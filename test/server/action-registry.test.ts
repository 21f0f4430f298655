/**
 * Action ids and their registry: ids are stable across machines, and lookup finds own
 * entries only.
 */
import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { actionId, createActionRegistry } from '../../server/actions/action-registry';

const FILE = 'src/app/photos/[id]/actions.ts';
const hashOf = (file: string) => createHash('sha256').update(file).digest('hex').slice(0, 12);

describe('actionId', () => {
  test('is 12 hex digits of the relative path, #, the export name', () => {
    expect(actionId(FILE, 'addComment')).toBe(`${hashOf(FILE)}#addComment`);
  });

  test('is the same for every spelling of the same relative path', () => {
    const id = actionId(FILE, 'like');
    expect(actionId(`./${FILE}`, 'like')).toBe(id);
    expect(actionId(FILE.replaceAll('/', '\\'), 'like')).toBe(id);
  });

  test('tells files and exports apart', () => {
    expect(actionId(FILE, 'like')).not.toBe(actionId(FILE, 'unlike'));
    expect(actionId('src/a.ts', 'like')).not.toBe(actionId('src/b.ts', 'like'));
  });

  test.each([['/home/me/app/src/actions.ts'], ['C:\\app\\src\\actions.ts']])(
    'refuses the absolute path %s',
    (file) => {
      expect(() => actionId(file, 'like')).toThrow('actionId needs a path relative to the app root');
    },
  );

  test('refuses an export name that is no identifier', () => {
    expect(() => actionId(FILE, 'a b')).toThrow('A server action must be a named export, got "a b"');
  });
});

describe('the action registry', () => {
  const registry = createActionRegistry();
  const like = async (photoId: string) => `liked ${photoId}`;
  registry.register(actionId(FILE, 'like'), like);

  test('finds a registered action by its id', async () => {
    const found = registry.lookupAction(actionId(FILE, 'like'));
    expect(found).toBe(like);
    expect(await found!('7')).toBe('liked 7');
  });

  test.each([
    ['__proto__'],
    ['constructor'],
    ['toString'],
    ['hasOwnProperty'],
    ['prototype'],
    ['valueOf'],
    [''],
    [actionId(FILE, 'unlike')],
    [`${actionId(FILE, 'like')} `],
  ])('finds nothing for %j', (id) => {
    expect(registry.lookupAction(id)).toBeUndefined();
  });

  test('a later registration under the same id replaces the action (a module edited in development)', () => {
    const fresh = createActionRegistry();
    const id = actionId(FILE, 'like');
    const edited = () => 'edited';
    fresh.register(id, like);
    fresh.register(id, edited);
    expect(fresh.lookupAction(id)).toBe(edited);
  });

  test('refuses an id actionId could not have made', () => {
    expect(() => createActionRegistry().register('__proto__', like)).toThrow(
      'Not a server action id: "__proto__"',
    );
  });
});
