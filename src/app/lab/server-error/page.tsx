export default function ServerErrorPage() {
  return <h1>This never renders: its loader always fails.</h1>;
}
