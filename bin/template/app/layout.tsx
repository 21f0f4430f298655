import { Link, type LayoutProps } from 'switchyard-react';
import './styles.css';

/** The root layout: it renders <html> and <body> around every page, and stays mounted between them. */
export default function RootLayout({ children }: LayoutProps) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <link rel="icon" href="/favicon.ico" sizes="any" />
      </head>
      <body>
        <header className="site-header">
          <nav aria-label="Main">
            <Link href="/" className="brand">
              My app
            </Link>
            <Link href="/items/1">First item</Link>
          </nav>
        </header>
        <main id="main">{children}</main>
      </body>
    </html>
  );
}
