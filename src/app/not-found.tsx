import { Link } from 'switchyard-react';

export default function NotFound() {
  return (
    <section className="message">
      <title>Page not found · Switchyard</title>
      <p className="message-code">404</p>
      <h1>We couldn’t find that page</h1>
      <p>The photo, profile or page you asked for doesn’t exist, or it has moved.</p>
      <p>
        <Link href="/" className="button">
          Back to the feed
        </Link>
      </p>
    </section>
  );
}
