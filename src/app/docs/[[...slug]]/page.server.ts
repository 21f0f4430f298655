import { notFound, type LoadArgs } from 'switchyard-react';
import { readDocsPage } from '../../../lib/docs.server';
import type { DocsPageData } from '../../../lib/types';

export async function load({ params }: LoadArgs<'/docs/[[...slug]]'>): Promise<DocsPageData> {
  const page = await readDocsPage(params.slug);
  if (!page) notFound();
  return page;
}
