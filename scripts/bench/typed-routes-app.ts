/**
 * The app the `tsc` rows check: 1 000 routes in 200 sections under 10 route groups, each
 * section with two static pages, a dynamic one with a loader, a catch-all and an optional
 * catch-all. Every page links to other sections the ways an app does: `<Link>` with a literal
 * and with a template, `href()`, `useRouter().push`. All the URLs are real, so the app
 * type-checks with its generated route types and without them; the two differ only in how
 * pages declare their props: by pattern with route types, written out by hand without.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const SECTIONS = 200;
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
 * Writes the app into `dir/app` and its `dir/tsconfig.json`, which includes the declarations
 * `switchyard typegen` writes when `routeTypes` is set. `switchyard-react` is the framework's
 * source, as in the repository's own tsconfig.
 */
export function writeTypedRoutesApp(
  dir: string,
  {
    frameworkRoot,
    routeTypes,
    sections = SECTIONS,
  }: { frameworkRoot: string; routeTypes: boolean; sections?: number },
): void {
  rmSync(dir, { recursive: true, force: true });
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  write('app/layout.tsx', layout({ name: 'RootLayout', section: 0, root: true, routeTypes }));
  for (let group = 0; group < GROUPS; group++) {
    write(
      `app/(g${group})/layout.tsx`,
      layout({ name: 'GroupLayout', section: group, root: false, routeTypes }),
    );
  }
  for (let section = 0; section < sections; section++) {
    for (const kind of KINDS) {
      const folder = join(`app/(g${section % GROUPS})/s${section}`, kind.folder);
      const route = { section, sections, kind, routeTypes };
      write(join(folder, 'page.tsx'), page(route));
      if (kind.folder === '[id]') write(join(folder, 'page.server.ts'), loader(route));
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
  const include = ['app', framework('client/globals.d.ts'), framework('client/virtual.d.ts')];
  if (routeTypes) include.push('.switchyard/types/app/routes.d.ts');
  write('tsconfig.json', JSON.stringify({ compilerOptions, include }, null, 2));
}

interface Route {
  section: number;
  sections: number;
  kind: Kind;
  routeTypes: boolean;
}

function layout({
  name,
  section,
  root,
  routeTypes,
}: {
  name: string;
  section: number;
  root: boolean;
  routeTypes: boolean;
}): string {
  const nav = `<nav>
          <Link href="/s${section}">Section ${section}</Link>
          <Link href="/s${section + 1}/new?from=nav">New</Link>
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
  // A route group adds nothing to the URL: its layout's pattern is the root's.
  return `import { Link, type LayoutProps } from 'switchyard-react';

export default function ${name}({ children }: LayoutProps${routeTypes ? "<'/'>" : ''}) {
  return (
    ${body}
  );
}
`;
}

/**
 * The props a page declares: by pattern with route types (params and data follow from them),
 * by hand without (params written out, data from the type its loader exports).
 */
function propsOf({ section, kind, routeTypes }: Route): string {
  if (routeTypes) return `PageProps<'/s${section}${kind.pattern}'>`;
  return kind.folder === '[id]' ? `PageProps<${kind.params}, ItemData>` : `PageProps<${kind.params}>`;
}

function page(route: Route): string {
  const { section, sections, kind, routeTypes } = route;
  const at = (offset: number) => (section + offset) % sections;
  const loads = kind.folder === '[id]';
  // A value from the page itself for the links built from templates: a param where there is one.
  const id = loads
    ? 'params.id'
    : kind.folder.includes('path')
      ? "params.path.join('-')"
      : kind.folder.includes('filters')
        ? "(params.filters[0] ?? 'all')"
        : "'1'";
  return `import { href, Link, useRouter, type PageProps } from 'switchyard-react';
${loads && !routeTypes ? "import type { ItemData } from './page.server';\n" : ''}
const related = ['1', '2', '3'];

export default function Page({ params${loads ? ', data' : ''} }: ${propsOf(route)}) {
  const router = useRouter();
  const id = ${id};
  return (
    <article>
      <h1>Section ${section}${kind.pattern} {${loads ? 'data.title' : 'id'}}</h1>
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

function loader({ section, kind, routeTypes }: Route): string {
  const args = routeTypes ? `LoadArgs<'/s${section}${kind.pattern}'>` : `LoadArgs<${kind.params}>`;
  return `import type { LoadArgs } from 'switchyard-react';

export async function load({ params }: ${args}) {
  return { title: \`Item \${params.id}\`, tags: ['new', 'sale'], price: Number(params.id) * 100 };
}
${routeTypes ? '' : '\nexport type ItemData = Awaited<ReturnType<typeof load>>;\n'}`;
}
