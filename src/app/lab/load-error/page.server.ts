/** Fails on purpose, under this segment's `error.tsx`: the boundary renders inside the site's layout. */
export function load(): never {
  throw new Error('The lab asked this loader to fail (load-error).');
}
