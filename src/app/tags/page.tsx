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
      <TagCards tags={data.tags} />
    </>
  );
}

/**
 * A card per top-level tag with tags below it; the top-level tags with none share one compact
 * card at the end, so no card is a lone chip in an empty box.
 */
function TagCards({ tags }: { tags: TagSummary[] }) {
  const top = tags.filter((tag) => !tag.path.includes('/'));
  const hasChildren = (tag: TagSummary) => tags.some((t) => t.path.startsWith(`${tag.path}/`));
  const leaves = top.filter((tag) => !hasChildren(tag));
  return (
    <ul className="tag-tree">
      {top.filter(hasChildren).map((tag) => (
        <li key={tag.path}>
          <TagChip tag={tag} name={tag.path} />
          <TagTree tags={tags} parent={tag.path} />
        </li>
      ))}
      {leaves.length > 0 && (
        <li className="tag-card-compact">
          <ul className="tag-chips">
            {leaves.map((tag) => (
              <li key={tag.path}>
                <TagChip tag={tag} name={tag.path} />
              </li>
            ))}
          </ul>
        </li>
      )}
    </ul>
  );
}

function TagChip({ tag, name }: { tag: TagSummary; name: string }) {
  return (
    <>
      <Link href={tagHref(tag.path)} className="tag">
        {name}
      </Link>{' '}
      <span className="muted">{tag.count}</span>
    </>
  );
}

/** The tags one level below `parent`, each with its own subtree. */
function TagTree({ tags, parent }: { tags: TagSummary[]; parent: string }) {
  const prefix = `${parent}/`;
  const level = tags.filter(
    (tag) => tag.path.startsWith(prefix) && !tag.path.slice(prefix.length).includes('/'),
  );
  if (level.length === 0) return null;
  return (
    <ul>
      {level.map((tag) => (
        <li key={tag.path}>
          <TagChip tag={tag} name={tag.path.slice(prefix.length)} />
          <TagTree tags={tags} parent={tag.path} />
        </li>
      ))}
    </ul>
  );
}
