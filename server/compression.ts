/**
 * How responses are compressed: one setting per encoding, chosen for text a server makes per
 * request (fast levels; static assets are compressed harder, once, at build time).
 */

/** Brotli quality for responses made per request: near gzip's speed, smaller output. */
export const BROTLI_QUALITY = 4;
/** gzip level for responses made per request, for clients without brotli. */
export const GZIP_LEVEL = 6;
