/** Fails on purpose, with no `error.tsx` above it: the server's fallback page and its digest. */
export function load(): never {
  throw new Error('The lab asked this loader to fail (server-error).');
}
