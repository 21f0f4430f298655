export default function RedirectPage() {
  return <h1>This never renders: its loader always redirects.</h1>;
}
