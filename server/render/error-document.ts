/**
 * The pages the server sends when it cannot render the app's own: a render that failed before
 * its shell (the exact fallback text and the digest, nothing of the error itself), and a request
 * refused before rendering. Plain HTML with inline styles, because the app's own layouts and
 * stylesheets may be what failed; every one has a language, a title, a `<main>` and a way home,
 * and looks like the client's last-resort fallback (`client/app-error-page.tsx`).
 */

import { SERVER_ERROR_MESSAGE } from '../../shared/error-messages.js';
import { FALLBACK_CSS } from '../../shared/fallback-page.js';

export { SERVER_ERROR_MESSAGE };

function page(title: string, body: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${title}</title><style>${FALLBACK_CSS}</style></head><body><main>${body}<p><a href="/">Go to the home page</a></p></main></body></html>`;
}

/**
 * @param shown in development only: the error itself, whose message and (source-mapped) stack
 *   the page then shows under the digest. Production never passes it.
 */
export function errorDocument(digest: string, shown?: unknown): string {
  return page(
    'Application error',
    `<h1>${SERVER_ERROR_MESSAGE}</h1><p>Digest: <code>${digest}</code></p>${shown === undefined ? '' : details(shown)}`,
  );
}

function details(error: unknown): string {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const stack = error instanceof Error ? (error.stack ?? '').split('\n').slice(1).join('\n') : '';
  return `<section aria-label="Error details (development only)" style="border-left:4px solid #cf222e;padding-left:1rem"><h2 style="font-size:1rem;color:#cf222e" id="dev-error-message">${escapeHtml(message)}</h2><pre tabindex="0" style="overflow:auto;font-size:.8rem;background:#f6f8fa;color:#1b1c20;padding:.75rem">${escapeHtml(stack)}</pre><p style="font-size:.875rem">Shown by the development server only; production shows the digest alone.</p></section>`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A request refused with a 4xx, as a page: `message` is plain text the server wrote. */
export function refusedDocument(title: string, message: string): string {
  return page(title, `<h1>${title}</h1><p>${escapeHtml(message)}</p>`);
}
