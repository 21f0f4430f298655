/**
 * An app in a folder of its own: that folder is Vite's root, its `vite.config.*` is loaded with
 * Switchyard's configuration merged over it, its `.env` reaches `import.meta.env` as Vite
 * documents, and the build goes where it is told. A real Vite build of a project written here.
 */
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import request from 'supertest';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { buildApp } from '../../server/build';

// Inside the repository, so that React and the framework resolve as they do for the demo.
const parent = resolve(import.meta.dirname, '../../.switchyard');
mkdirSync(parent, { recursive: true });
const root = realpathSync(mkdtempSync(join(parent, 'project-root-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const files: Record<string, string> = {
  'package.json': '{ "private": true, "type": "module" }',
  '.env': 'VITE_GREETING=hello from .env\nSECRET_TOKEN=never-in-the-bundle\n',
  'vite.config.ts': [
    "import { defineConfig } from 'vite';",
    // Vite's root is Switchyard's to set: the app's own settings are merged under it.
    "export default defineConfig({ root: '/nowhere', define: { __FROM_APP_CONFIG__: JSON.stringify('the app config') } });",
  ].join('\n'),
  'app/layout.tsx': [
    "import type { LayoutProps } from 'switchyard-react';",
    'export default function Root({ children }: LayoutProps) {',
    '  return (<html lang="en"><body>{children}</body></html>);',
    '}',
  ].join('\n'),
  'app/page.tsx': [
    'declare const __FROM_APP_CONFIG__: string;',
    'export default function Home() {',
    '  return (<main><p id="env">{import.meta.env.VITE_GREETING}</p><p id="config">{__FROM_APP_CONFIG__}</p></main>);',
    '}',
  ].join('\n'),
};

let outDir = '';
beforeAll(async () => {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  outDir = join(root, 'dist');
  await buildApp({ root, appDir: join(root, 'app'), outDir });
}, 120_000);

test('the build is of the app, named from its own root', () => {
  const info = JSON.parse(readFileSync(join(outDir, 'build.json'), 'utf8')) as {
    appDir: string;
    clientEntry: string;
  };
  expect(info.appDir).toBe('app');
  // The framework's entry is outside this root: the manifest names it by the path up to it.
  expect(info.clientEntry).toMatch(/^(\.\.\/)+client\/entry\.tsx$/);
});

test("the app's vite.config and .env reach its pages; only VITE_ variables do", async () => {
  const { createProductionApp } = (await import(
    pathToFileURL(join(outDir, 'server/production.js')).href
  )) as {
    createProductionApp: (out: string) => Parameters<typeof request>[0];
  };
  const res = await request(createProductionApp(outDir)).get('/');
  expect(res.status).toBe(200);
  expect(res.text).toContain('<p id="env">hello from .env</p>');
  expect(res.text).toContain('<p id="config">the app config</p>');
  const built = readdirSync(outDir, { recursive: true, withFileTypes: true }).filter((entry) =>
    entry.isFile(),
  );
  for (const file of built) {
    expect(readFileSync(join(file.parentPath, file.name), 'utf8')).not.toContain('never-in-the-bundle');
  }
});
