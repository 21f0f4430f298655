/**
 * One app with every segment kind, and levels where several kinds compete: the route matcher's
 * tests and the route table's (which adds slots and loading states) read the same files.
 */
export const EVERY_SEGMENT_KIND: readonly string[] = [
  'layout.tsx',
  'page.tsx',
  'not-found.tsx',
  'photos/page.tsx',
  'photos/new/page.tsx',
  'photos/[id]/page.tsx',
  'photos/[id]/edit/page.tsx',
  'tags/[...path]/page.tsx',
  'docs/[[...slug]]/page.tsx',
  'files/[name]/page.tsx',
  'files/[...rest]/page.tsx',
  'files/report/page.tsx',
  '(marketing)/layout.tsx',
  '(marketing)/about/page.tsx',
  '(marketing)/(legal)/terms/page.tsx',
  'shop/[[...filters]]/page.tsx',
  'shop/sale/page.tsx',
  'u/[handle]/page.tsx',
  'u/[handle]/posts/[post]/page.tsx',
  'u/me/posts/latest/page.tsx',
  'café/page.tsx',
  'components/button.tsx',
  // Route handlers end a branch as pages do, and compete with them by the same priority.
  'api/photos/[id]/route.ts',
  'api/photos/[id]/art/route.ts',
  'api/files/[...path]/route.ts',
  'api/(v2)/search/[[...q]]/route.ts',
  'photos/[id]/json/route.js',
  'u/[handle]/feed.xml/route.ts',
];
