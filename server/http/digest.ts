/**
 * A digest names a server error without revealing it: the browser gets only this,
 * the server log gets the same digest beside the full error.
 */
import { createHash } from 'node:crypto';

export function digestOf(error: unknown): string {
  const text = error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : String(error);
  return createHash('sha256').update(text).digest('hex').slice(0, 10);
}
