#!/usr/bin/env node
/**
 * `npm pack`'s `prepack` step: compiles the framework (`client/`, `server/`, `shared/`) into
 * `lib/`, the same tree as `.js` modules with a `.d.ts` beside each, which is all the package
 * ships besides `bin/`. An app that installs it compiles nothing and needs no TypeScript loader;
 * its own `tsc` reads the `.d.ts` files. Checks that every entry in `exports` is there.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
rmSync(join(root, 'lib'), { recursive: true, force: true });
const tsc = spawnSync(
  process.execPath,
  [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'scripts/package'],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
if (tsc.status !== 0) process.exit(tsc.status ?? 1);

/** @type {{ exports: Record<string, string | Record<string, string>> }} */
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const missing = Object.values(pkg.exports)
  .flatMap((entry) => (typeof entry === 'string' ? [entry] : Object.values(entry)))
  .filter((file) => !existsSync(join(root, file)));
if (missing.length > 0) {
  console.error(`The package's exports name files the build did not make: ${missing.join(', ')}`);
  process.exit(1);
}
console.log('Compiled the framework into lib/.');
