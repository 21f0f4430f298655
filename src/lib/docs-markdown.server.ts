/**
 * One docs page from markdown to HTML: code blocks drawn by the renderer given (highlighted for
 * a page, plain for the search index), every heading below the title given an `id` and a link to
 * itself, and the page cut into sections for the search index. The first `# Title` is left out:
 * the page shows the title itself.
 */
import { Marked, type Tokens } from 'marked';
import { createSlugger } from './docs-outline.ts';
import type { DocsHeading } from './types';

/** A fenced code block, its text and its fence's language, as the `<pre>` a page shows. */
export type CodeRenderer = (code: string, lang?: string) => string;

export interface RenderedMarkdown {
  html: string;
  headings: DocsHeading[];
}

/** A section of a page as the search sees it: its heading (none for the page's top) and prose. */
export interface MarkdownSection {
  heading?: DocsHeading;
  text: string;
}

/** Ids the site's layout and the docs page use around the markdown. */
const PAGE_IDS = ['main', 'docs-contents-title'];

export function renderMarkdown(source: string, renderCode: CodeRenderer): RenderedMarkdown {
  // The page's own ids (its pictures') are taken before any heading gets one.
  const slug = createSlugger([...PAGE_IDS, ...[...source.matchAll(/\bid="([^"]+)"/g)].map((m) => m[1]!)]);
  const headings: DocsHeading[] = [];
  let titled = false;
  const marked = new Marked({
    renderer: {
      heading({ tokens, depth }: Tokens.Heading) {
        const inner = this.parser.parseInline(tokens);
        // The title is the page's own `<h1>`, outside this HTML, above the contents list.
        if (depth === 1 && !titled) {
          titled = true;
          return '';
        }
        if (depth === 1 || depth > 4) return `<h${depth}>${inner}</h${depth}>\n`;
        const text = decodeEntities(stripTags(inner));
        const id = slug(text);
        headings.push({ id, text, depth: depth as DocsHeading['depth'] });
        // A link inside the heading cannot sit inside the self-link: it gets the text only.
        const label = inner.includes('<a ') ? escapeHtml(text) : inner;
        return `<h${depth} id="${id}"><a class="heading-link" href="#${id}">${label}</a></h${depth}>\n`;
      },
      code({ text, lang }: Tokens.Code) {
        return renderCode(text, lang?.split(/\s/)[0]);
      },
    },
  });
  // On a phone a wide table scrolls sideways: focusable, so the keyboard can scroll it too.
  const html = marked.parse(source, { async: false }).replaceAll('<table>', '<table tabindex="0">');
  return { html, headings };
}

/** The page's prose cut at its headings, without code, pictures or markup. */
export function sectionsOf({ html, headings }: RenderedMarkdown): MarkdownSection[] {
  const parts = html.split(/<h[2-4] id="[^"]+">[\s\S]*?<\/h[2-4]>/);
  return parts.map((part, i) => ({
    ...(i > 0 && headings[i - 1] ? { heading: headings[i - 1] } : {}),
    text: decodeEntities(
      stripTags(part.replace(/<(pre|svg)\b[\s\S]*?<\/\1>/g, ' '))
        .replace(/\s+/g, ' ')
        .trim(),
    ),
  }));
}

/** What a screen reader says when a code block takes focus, by the fence's language. */
const LANGUAGE_NAMES: Record<string, string> = {
  ts: 'TypeScript',
  typescript: 'TypeScript',
  tsx: 'TSX',
  js: 'JavaScript',
  javascript: 'JavaScript',
  json: 'JSON',
  sh: 'Shell',
  bash: 'Shell',
  shell: 'Shell',
  css: 'CSS',
  html: 'HTML',
  diff: 'Diff',
  nginx: 'nginx',
};

/** A code block without highlighting: what the search index reads, or a language not loaded. */
export const plainCode: CodeRenderer = (code, lang = '') => codeBlock(lang.toLowerCase(), escapeHtml(code));

/**
 * Focusable and labelled: a long line scrolls the block sideways, and the keyboard must be able
 * to scroll it too.
 */
export function codeBlock(language: string, body: string): string {
  const name = LANGUAGE_NAMES[language];
  const label = name ? `${name} code` : 'Code';
  return `<pre class="code" tabindex="0" role="group" aria-label="${label}"><code>${body}</code></pre>\n`;
}

const stripTags = (html: string) => html.replace(/<[^>]*>/g, '');
export const escapeHtml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
const decodeEntities = (text: string) =>
  text.replace(/&(lt|gt|quot|#39|amp);/g, (_, name: string) =>
    name === 'lt' ? '<' : name === 'gt' ? '>' : name === 'quot' ? '"' : name === '#39' ? "'" : '&',
  );
