/** Shown at once on a navigation to an item, until its data is there. */
export default function ItemLoading() {
  return <p role="status">Loading…</p>;
}
