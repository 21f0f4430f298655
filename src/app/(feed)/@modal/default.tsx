/** The modal slot when no photo is open over the page: nothing. */
export default function NoModal() {
  return null;
}
