import { Link, type LayoutProps } from 'switchyard-react';
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
        <Nav LinkAs={Link} />
        <main>{children}</main>
      </body>
    </html>
  );
}
