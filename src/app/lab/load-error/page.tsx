export default function LoadErrorPage() {
  return <h1>This never renders: its loader always fails.</h1>;
}
