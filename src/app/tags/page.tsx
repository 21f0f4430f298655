import { Link, type Head, type PageProps } from 'switchyard-react';
import { tagHref } from '../../lib/format';
import type { TagSummary } from '../../lib/types';

export function head(): Head {
  return { title: 'Tags · Switchyard' };
}

export default function TagIndexPage({ data }: PageProps<'/tags'>) {
  return (
    <>
      <div className="page-head">
        <h1>Tags</h1>
        <p className="muted">Tags nest: a photo tagged nature/trees is also listed under nature.</p>
      </div>
      <TagTree tags={data.tags} parent="" />
    </>
  );
}

/** The tags one level below `parent` (`''` for the top level), each with its own subtree. */
function TagTree({ tags, parent }: { tags: TagSummary[]; parent: string }) {
  const prefix = parent === '' ? '' : `${parent}/`;
  const level = tags.filter(
    (tag) => tag.path.startsWith(prefix) && !tag.path.slice(prefix.length).includes('/'),
  );
  if (level.length === 0) return null;
  return (
    <ul className={parent === '' ? 'tag-tree' : undefined}>
      {level.map((tag) => (
        <li key={tag.path}>
          <Link href={tagHref(tag.path)} className="tag">
            {tag.path.slice(prefix.length)}
          </Link>{' '}
          <span className="muted">{tag.count}</span>
          <TagTree tags={tags} parent={tag.path} />
        </li>
      ))}
    </ul>
  );
}
