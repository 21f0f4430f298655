/**
 * Server actions by id. An id is `<12 hex digits of sha256(file)>#<export name>`, the same on
 * the client and the server because both builds derive it from the same relative path. Lookup
 * is own-entries only: a `Map`, so `__proto__` or `toString` never finds an inherited function.
 */
import { createHash } from 'node:crypto';
import { isAbsolute } from 'node:path';

/**
 * How an action is called once looked up. Its arguments come off the wire, so the action checks
 * them whatever its parameter types say.
 */
export type ServerAction = (...args: unknown[]) => unknown;

export interface ActionRegistry {
  /** Adds or replaces an action: in development a module runs again after every edit. */
  register(id: string, action: (...args: never[]) => unknown): void;
  /** The action with exactly this id, or undefined. */
  lookupAction(id: string): ServerAction | undefined;
}

const HASH_LENGTH = 12;
const ACTION_ID = /^[0-9a-f]{12}#[A-Za-z_$][\w$]*$/;

/**
 * @example
 * actionId('src/app/photos/[id]/actions.ts', 'addComment'); // 'c0ffee123456#addComment'
 */
export function actionId(relativeFile: string, exportName: string): string {
  const file = relativeFile.replaceAll('\\', '/').replace(/^(\.\/)+/, '');
  // An absolute path would give another id on another machine or checkout.
  if (isAbsolute(relativeFile) || /^[A-Za-z]:\//.test(file)) {
    throw new TypeError(`actionId needs a path relative to the app root, got ${relativeFile}`);
  }
  const id = `${createHash('sha256').update(file).digest('hex').slice(0, HASH_LENGTH)}#${exportName}`;
  if (!ACTION_ID.test(id)) throw new TypeError(`A server action must be a named export, got "${exportName}"`);
  return id;
}

export function createActionRegistry(): ActionRegistry {
  const actions = new Map<string, ServerAction>();
  return {
    register(id, action) {
      if (!ACTION_ID.test(id))
        throw new TypeError(`Not a server action id: "${id}"; make one with actionId()`);
      if (typeof action !== 'function') throw new TypeError(`Server action ${id} is not a function`);
      actions.set(id, action as ServerAction);
    },
    lookupAction(id) {
      return typeof id === 'string' ? actions.get(id) : undefined;
    },
  };
}
