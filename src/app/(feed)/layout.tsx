import type { LayoutProps } from 'switchyard-react';

/**
 * The feed and the profiles share this layout, and with it the `@modal` slot: a photo opened
 * from one of their pages shows in a modal over it (`@modal/(.)photos/[id]`), while a photo
 * opened any other way (a shared link, a reload, the tags pages) gets its full page.
 */
export default function FeedLayout({ children, modal }: LayoutProps<'/'>) {
  return (
    <>
      {children}
      {modal}
    </>
  );
}
