import { Link, type Head, type LayoutProps } from 'switchyard-react';
import { Account } from '../components/account';
import { NavLink } from '../components/nav-link';
import { NavigationProgress } from '../components/navigation-progress';
import type { SiteData } from '../lib/types';
import './styles.css';

/**
 * A small inline favicon, so a page view costs no request for it: Chromium asks for a linked
 * icon file again on every history navigation, even a soft one. The same picture is
 * src/public/favicon.ico, for what asks for that URL without reading a page (bookmarks, feeds).
 */
const FAVICON =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Crect width='16' height='16' rx='4' fill='%232456c7'/%3E%3Cpath d='M3 11l3-4 3 3 2-2 2 3z' fill='%23fff'/%3E%3C/svg%3E";

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
        <link rel="icon" href={FAVICON} />
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
