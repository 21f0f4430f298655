import { currentUser } from '../lib/session.server';
import type { SiteData } from '../lib/types';

/** Who is signed in, for the header: every page shows it. */
export async function load(): Promise<SiteData> {
  const user = currentUser();
  return { user: user ? { handle: user.handle, name: user.name } : null };
}
