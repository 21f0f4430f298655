import { Link, useNavigationPending, type LayoutProps } from 'switchyard-react';
import { Nav } from '../items';

export default function BenchLayout({ children }: LayoutProps) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <title>Items</title>
        <link rel="icon" href="data:," />
      </head>
      <body>
        <ProgressBar />
        <Nav LinkAs={Link} />
        <main>{children}</main>
      </body>
    </html>
  );
}

/**
 * The one component of the page that reads the router's pending state, as an app's progress bar
 * does: the bench counts what a click re-renders, and only this and the clicked link should.
 */
function ProgressBar() {
  const pending = useNavigationPending();
  return pending ? <div role="progressbar" aria-label="Loading the next page" style={BAR} /> : null;
}

/** Over the page, as a progress bar is: showing it moves nothing else. */
const BAR = { position: 'fixed', top: 0, left: 0, right: 0, height: 3, background: '#36c' } as const;
