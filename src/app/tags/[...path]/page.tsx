import { Link, type Head, type HeadArgs, type PageProps } from 'switchyard-react';
import { PhotoGrid } from '../../../components/photo-grid';
import { plural, tagHref } from '../../../lib/format';

type Props = PageProps<'/tags/[...path]'>;

export function head({ params }: HeadArgs<Props['data'], Props['params']>): Head {
  return { title: `${params.path.join('/')} · Tags · Switchyard` };
}

export default function TagPage({ params, data }: Props) {
  const tag = params.path.join('/');
  return (
    <>
      <nav aria-label="Breadcrumb" className="breadcrumbs">
        <ol>
          <li>
            <Link href="/tags">Tags</Link>
          </li>
          {params.path.map((segment, i) => {
            const path = params.path.slice(0, i + 1).join('/');
            const isCurrent = i === params.path.length - 1;
            return (
              <li key={path}>
                <Link href={tagHref(path)} aria-current={isCurrent ? 'page' : undefined}>
                  {segment}
                </Link>
              </li>
            );
          })}
        </ol>
      </nav>
      <div className="page-head">
        <h1>{tag}</h1>
        <p className="muted">{plural(data.photos.length, 'photo')}</p>
      </div>
      {data.children.length > 0 && (
        <nav aria-label="Narrower tags" className="subtags">
          <ul className="tags">
            {data.children.map((child) => (
              <li key={child.path}>
                <Link href={tagHref(child.path)} className="tag">
                  {`${child.path.slice(tag.length + 1)} (${child.count})`}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      )}
      <PhotoGrid photos={data.photos} />
    </>
  );
}
