/**
 * The repository's layering, checked on its import graph: no module reaches back into one that
 * imports it (type-only imports count: a reader follows them too), and each floor imports only
 * the floors below it — `server` → `client` → `shared`, and nothing of the framework from `bin`.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { expect, test } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const FOLDERS = ['shared', 'client', 'server', 'bin'];
const SOURCE = /\.(ts|tsx|js|mjs)$/;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesUnder(path);
    return SOURCE.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every module's relative imports (static, re-exports and dynamic), as repository paths. */
function importGraph(): Map<string, string[]> {
  const files = FOLDERS.flatMap((folder) => filesUnder(join(ROOT, folder)));
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const source = readFileSync(file, 'utf8');
    const specifiers = [...source.matchAll(/(?:from\s*|import\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g)].map(
      (m) => m[1]!,
    );
    const targets = specifiers.flatMap((specifier) => {
      const base = resolve(dirname(file), specifier);
      const found = ['', '.ts', '.tsx', '.js', '.mjs', '/index.ts']
        .map((ext) => base + ext)
        .find((p) => known.has(p));
      return found ? [relative(ROOT, found)] : [];
    });
    graph.set(relative(ROOT, file), targets);
  }
  return graph;
}

/** The cycles of a graph, each once, as the path that closes it. */
function cyclesOf(graph: Map<string, string[]>): string[] {
  const cycles = new Set<string>();
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (node: string) => {
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      const at = path.indexOf(next);
      if (at >= 0) cycles.add([...path.slice(at), next].join(' → '));
      else if (!done.has(next)) visit(next);
    }
    path.pop();
    done.add(node);
  };
  for (const node of graph.keys()) if (!done.has(node)) visit(node);
  return [...cycles];
}

const graph = importGraph();

test('no import circles', () => {
  expect(cyclesOf(graph)).toEqual([]);
});

test('the cycle finder finds a circle through a type-only import', () => {
  const circle = new Map([
    ['a.ts', ['b.ts']],
    ['b.ts', ['a.ts']],
  ]);
  expect(cyclesOf(circle)).toEqual(['a.ts → b.ts → a.ts']);
});

test('each floor imports only the floors below it', () => {
  const allowed: Record<string, string[]> = {
    shared: ['shared'],
    client: ['shared', 'client'],
    server: ['shared', 'client', 'server'],
    bin: ['shared', 'client', 'server', 'bin'],
  };
  const wrong = [...graph].flatMap(([file, targets]) => {
    const floor = file.split('/')[0]!;
    return targets.filter((t) => !allowed[floor]!.includes(t.split('/')[0]!)).map((t) => `${file} → ${t}`);
  });
  expect(wrong).toEqual([]);
});
