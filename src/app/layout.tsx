import { Link, type Head, type LayoutProps } from 'switchyard-react';
import { Account } from '../components/account';
import { NavLink } from '../components/nav-link';
import { NavigationProgress } from '../components/navigation-progress';
import type { SiteData } from '../lib/types';
import './styles.css';

/** The site's description and type, for every page that says no more of itself; each page names itself. */
export function head(): Head {
  return { description: 'A photo-sharing demo built with Switchyard.', openGraph: { type: 'website' } };
}

export default function RootLayout({ children, data }: LayoutProps<Record<string, never>, SiteData>) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {/* From src/public, cached by the browser; favicon.ico is the same picture for what asks for that URL. */}
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
      </head>
      <body>
        <NavigationProgress />
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <header className="site-header">
          <div className="wrap header-inner">
            <Link href="/" className="brand">
              Switchyard
            </Link>
            <nav aria-label="Main">
              <ul className="nav-list">
                <li>
                  <NavLink href="/">Feed</NavLink>
                </li>
                <li>
                  <NavLink href="/tags">Tags</NavLink>
                </li>
                <li>
                  <NavLink href="/docs">Docs</NavLink>
                </li>
                <li>
                  <NavLink href="/me">You</NavLink>
                </li>
              </ul>
            </nav>
            <Account user={data.user} />
          </div>
        </header>
        <main id="main" className="wrap site-main" tabIndex={-1}>
          {children}
        </main>
        <footer className="site-footer">
          <div className="wrap">
            <p>
              A demo of Switchyard, a small server-rendered React framework. Every picture is drawn from a
              seed: no image files, no network.
            </p>
            <ul className="footer-links">
              <li>
                <Link href="/docs">Read the docs</Link>
              </li>
              <li>
                <Link href="/lab">For developers</Link>
              </li>
            </ul>
          </div>
        </footer>
      </body>
    </html>
  );
}
