// The modal shows the same photo as its full page, from the same loader.
export { load, search } from '../../../../photos/[id]/page.server';
