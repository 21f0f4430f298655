/**
 * The fixture apps under test/fixtures, as module maps keyed like the app directory, the way
 * the Vite plugin hands them to `createApp` in a real build.
 */
import type { RouteModules } from '../../server/render/route-runtime';

const basicModules = import.meta.glob('../fixtures/basic/**/*.{ts,tsx}');

function relativeTo(prefix: string, modules: Record<string, () => Promise<unknown>>): RouteModules {
  return Object.fromEntries(Object.entries(modules).map(([path, load]) => [path.slice(prefix.length), load]));
}

export const basicApp = relativeTo('../fixtures/basic/', basicModules);

const slotsModules = import.meta.glob('../fixtures/slots/**/*.{ts,tsx}');
export const slotsApp = relativeTo('../fixtures/slots/', slotsModules);

const routingModules = import.meta.glob('../fixtures/routing/**/*.{ts,tsx}');
export const routingApp = relativeTo('../fixtures/routing/', routingModules);

const headModules = import.meta.glob('../fixtures/head/**/*.{ts,tsx}');
export const headApp = relativeTo('../fixtures/head/', headModules);

const demoModules = import.meta.glob('../../src/app/**/*.{ts,tsx}');
/** The demo app itself, as its build would map it. */
export const demoApp = relativeTo('../../src/app/', demoModules);

/** The security headers only a document reads, which page data (JSON) leaves out. */
export const DOCUMENT_ONLY_HEADERS = [
  'x-frame-options',
  'referrer-policy',
  'cross-origin-opener-policy',
  'permissions-policy',
  'content-security-policy',
];
