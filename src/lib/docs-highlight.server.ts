/**
 * Syntax highlighting for the docs' code blocks, on the server: the page's HTML arrives with its
 * tokens marked, and no highlighter ever runs in the browser. Tokens carry a class
 * (`tok-keyword`), not a colour, so the HTML stays small and the stylesheet picks the colours for
 * light and dark. Only the languages the docs use are loaded; a block in any other is plain.
 *
 * The regex engine is Oniguruma in WebAssembly (inlined, so no file to find): Shiki's JavaScript
 * engine avoids the WASM module but translates every grammar's regexes first, and measured on
 * the docs it took twice as long on a page's first highlighting and four times as long after.
 */
import { createCssVariablesTheme, createHighlighterCore } from '@shikijs/core';
import { createOnigurumaEngine } from '@shikijs/engine-oniguruma';
import css from '@shikijs/langs/css';
import diff from '@shikijs/langs/diff';
import html from '@shikijs/langs/html';
import json from '@shikijs/langs/json';
import nginx from '@shikijs/langs/nginx';
import shellscript from '@shikijs/langs/shellscript';
import tsx from '@shikijs/langs/tsx';
import typescript from '@shikijs/langs/typescript';
import { codeBlock, escapeHtml, plainCode, type CodeRenderer } from './docs-markdown.server.ts';

// The theme maps each token kind to `var(--code-token-<kind>)`; the kind becomes the class.
const THEME = createCssVariablesTheme({ name: 'docs', variablePrefix: '--code-' });
// Punctuation is drawn in the text's colour: it needs no span.
const KIND = /^var\(--code-token-((?!punctuation)[a-z-]+)\)$/;

let loading: Promise<CodeRenderer> | undefined;

/** The highlighting renderer, made on first use and shared after: one per process. */
export function loadHighlighter(): Promise<CodeRenderer> {
  loading ??= createHighlighterCore({
    themes: [THEME],
    // html brings javascript and css with it.
    langs: [typescript, tsx, json, shellscript, css, html, diff, nginx],
    engine: createOnigurumaEngine(import('@shikijs/engine-oniguruma/wasm-inlined')),
  }).then((highlighter) => {
    const loaded = new Set(highlighter.getLoadedLanguages());
    return (code, lang = '') => {
      const language = lang.toLowerCase();
      if (!loaded.has(language)) return plainCode(code, language);
      // No time limit per line: Shiki's default (500 ms) hands back the rest of a line as one
      // token when the first use of a grammar is slow on a busy machine, and the page is cached.
      const { tokens } = highlighter.codeToTokens(code, {
        lang: language,
        theme: 'docs',
        tokenizeTimeLimit: 0,
      });
      return codeBlock(language, tokens.map(lineHtml).join('\n'));
    };
  });
  // A failure is not kept: the next page tries again.
  loading.catch(() => (loading = undefined));
  return loading;
}

function lineHtml(line: readonly { content: string; color?: string }[]): string {
  let out = '';
  let open: string | undefined;
  for (const token of line) {
    // Neighbours of one kind share a span, spaces between them too; plain text needs none.
    const kind = /^\s*$/.test(token.content) ? open : KIND.exec(token.color ?? '')?.[1];
    if (kind !== open) {
      if (open) out += '</span>';
      if (kind) out += `<span class="tok-${kind}">`;
      open = kind;
    }
    out += escapeHtml(token.content);
  }
  return open ? `${out}</span>` : out;
}
