import type { LoadArgs } from 'switchyard-react';
import { nextPath } from '../../lib/next-path';
import { currentUser } from '../../lib/session.server';
import { listUsers } from '../../lib/users';

export async function load({ searchParams }: LoadArgs<'/sign-in'>) {
  return {
    users: listUsers().map(({ handle, name, hue }) => ({ handle, name, hue })),
    next: nextPath(searchParams.next),
    signedInAs: currentUser()?.handle ?? null,
  };
}
