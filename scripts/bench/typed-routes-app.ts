/**
 * The app the `tsc` rows check: 1 000 routes in 200 sections under 10 route groups, each
 * section with two static pages, a dynamic one with a loader, a catch-all and an optional
 * catch-all. Every page links to other sections the ways an app does: `<Link>` with a literal
 * and with a template, `href()`, `useRouter().push`. All the URLs are real, so the same app
 * type-checks with its generated route types and without them.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

export const SECTIONS = 200;
const GROUPS = 10;

/** One kind of route in every section; `pattern` is below `/s<n>`. */
const KINDS = [
  { folder: '', pattern: '', params: '{}' },
  { folder: 'new', pattern: '/new', params: '{}' },
  { folder: '[id]', pattern: '/[id]', params: '{ id: string }' },
  { folder: 'docs/[...path]', pattern: '/docs/[...path]', params: '{ path: string[] }' },
  { folder: 'browse/[[...filters]]', pattern: '/browse/[[...filters]]', params: '{ filters: string[] }' },
] as const;
type Kind = (typeof KINDS)[number];

export const ROUTES = SECTIONS * KINDS.length;

/**
 * Writes the app into `dir/app`, with `dir/tsconfig.json` (the app and its generated route
 * types) and `dir/tsconfig.untyped.json` (the app alone). `switchyard-react` is the framework's
 * source, as in the repository's own tsconfig.
 */
export function writeTypedRoutesApp(dir: string, frameworkRoot: string): void {
  rmSync(dir, { recursive: true, force: true });
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  write('app/layout.tsx', layout('RootLayout', 0, true));
  for (let group = 0; group < GROUPS; group++)
    write(`app/(g${group})/layout.tsx`, layout('GroupLayout', group));
  for (let section = 0; section < SECTIONS; section++) {
    for (const kind of KINDS) {
      const folder = join(`app/(g${section % GROUPS})/s${section}`, kind.folder);
      write(join(folder, 'page.tsx'), page(section, kind));
      if (kind.folder === '[id]') write(join(folder, 'page.server.ts'), loader(kind));
    }
  }

  const framework = (path: string) => relative(dir, join(frameworkRoot, path));
  const compilerOptions = {
    target: 'ES2023',
    lib: ['ES2023', 'DOM', 'DOM.Iterable'],
    module: 'ESNext',
    moduleResolution: 'bundler',
    jsx: 'react-jsx',
    types: ['vite/client'],
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    verbatimModuleSyntax: true,
    isolatedModules: true,
    skipLibCheck: true,
    noEmit: true,
    allowImportingTsExtensions: true,
    paths: { 'switchyard-react': [framework('client/index.ts')] },
  };
  const sources = ['app', framework('client/globals.d.ts'), framework('client/virtual.d.ts')];
  write(
    'tsconfig.json',
    JSON.stringify({ compilerOptions, include: [...sources, '.switchyard/types/app/routes.d.ts'] }, null, 2),
  );
  write('tsconfig.untyped.json', JSON.stringify({ compilerOptions, include: sources }, null, 2));
}

function layout(name: string, n: number, root = false): string {
  const nav = `<nav>
          <Link href="/s${n}">Section ${n}</Link>
          <Link href="/s${n + 1}/new?from=nav">New</Link>
        </nav>`;
  const body = root
    ? `<html lang="en">
      <body>
        ${nav}
        <main>{children}</main>
      </body>
    </html>`
    : `<section>
        ${nav}
        {children}
      </section>`;
  return `import { Link, type LayoutProps } from 'switchyard-react';

export default function ${name}({ children }: LayoutProps) {
  return (
    ${body}
  );
}
`;
}

/**
 * The props a page declares, by hand: params written out, data from its loader's type. With
 * the pattern forms, this would be `PageProps<'/s3/[id]'>` and the data inferred.
 */
function propsOf(kind: Kind): string {
  return kind.folder === '[id]' ? `PageProps<${kind.params}, ItemData>` : `PageProps<${kind.params}>`;
}

function page(section: number, kind: Kind): string {
  const at = (offset: number) => (section + offset) % SECTIONS;
  // A value from the page itself for the links built from templates: a param where there is one.
  const id =
    kind.folder === '[id]'
      ? 'params.id'
      : kind.folder.includes('path')
        ? "params.path.join('-')"
        : kind.folder.includes('filters')
          ? "(params.filters[0] ?? 'all')"
          : "'1'";
  return `import { href, Link, useRouter, type PageProps } from 'switchyard-react';
${kind.folder === '[id]' ? "import type { ItemData } from './page.server';\n" : ''}
const related = ['1', '2', '3'];

export default function Page({ params${kind.folder === '[id]' ? ', data' : ''} }: ${propsOf(kind)}) {
  const router = useRouter();
  const id = ${id};
  return (
    <article>
      <h1>Section ${section}${kind.pattern} {${kind.folder === '[id]' ? 'data.title' : 'id'}}</h1>
      <Link href="/s${at(1)}">Next section</Link>
      <Link href={\`/s${at(2)}/\${id}\`}>Same item elsewhere</Link>
      <Link href="/s${at(3)}/docs/guide/start?tab=api#usage">Guide</Link>
      <Link href={href('/s${at(4)}/[id]', { id })}>Item</Link>
      <Link href={href('/s${at(5)}/browse/[[...filters]]', { filters: [id, 'new'] })}>Browse</Link>
      <ul>
        {related.map((other) => (
          <li key={other}>
            <Link href={\`/s${at(6)}/docs/\${other}\`}>Doc {other}</Link>
          </li>
        ))}
      </ul>
      <button type="button" onClick={() => router.push(\`/s${at(7)}/browse/\${id}?sort=new\`)}>
        Browse more
      </button>
      <p>{Object.keys(params).length}</p>
    </article>
  );
}
`;
}

function loader(kind: Kind): string {
  return `import type { LoadArgs } from 'switchyard-react';

export async function load({ params }: LoadArgs<${kind.params}>) {
  return { title: \`Item \${params.id}\`, tags: ['new', 'sale'], price: Number(params.id) * 100 };
}

export type ItemData = Awaited<ReturnType<typeof load>>;
`;
}
