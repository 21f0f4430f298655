/**
 * The page sent when a render fails before its shell: the exact fallback text of SPEC E4 and
 * the digest, nothing of the error itself. Plain HTML, because the app's own layouts may be
 * what failed.
 */

import { SERVER_ERROR_MESSAGE } from '../shared/error-messages';

export { SERVER_ERROR_MESSAGE };

export function errorDocument(digest: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>Application error</title></head><body><main style="font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem"><h1 style="font-size:1.25rem">${SERVER_ERROR_MESSAGE}</h1><p>Digest: <code>${digest}</code></p></main></body></html>`;
}
