/**
 * The demo's one store, opened on first use (not at import: a build must not create a database)
 * in `SWITCHYARD_DATA_DIR` or `.data/`, and closed when the process ends.
 */
import { openStore, type Store } from './store.server';

let opened: Store | undefined;

export function store(): Store {
  if (!opened) {
    opened = openStore();
    process.once('exit', () => opened?.close());
  }
  return opened;
}
