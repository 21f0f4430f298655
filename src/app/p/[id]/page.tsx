export default function ShortLinkPage() {
  return <h1>This never renders: a short link always redirects.</h1>;
}
