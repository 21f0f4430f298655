import { Link } from 'switchyard-react';

/** What a URL with no page, or a `notFound()` from a `load`, shows (with the status 404). */
export default function NotFound() {
  return (
    <>
      <title>Page not found · My app</title>
      <h1>Page not found</h1>
      <p>There is nothing at this address.</p>
      <p>
        <Link href="/">Back to the home page</Link>
      </p>
    </>
  );
}
