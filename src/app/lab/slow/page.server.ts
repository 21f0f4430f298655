import type { LoadArgs } from 'switchyard-react';

const DEFAULT_DELAY_MS = 2_000;
const MAX_DELAY_MS = 5_000;

/** Waits before answering: `?delay=<ms>` (0 to 5000) overrides the two seconds. */
export async function load({ searchParams, request }: LoadArgs<'/lab/slow'>) {
  const asked = Number(searchParams.delay);
  const delayMs =
    typeof searchParams.delay === 'string' && Number.isFinite(asked)
      ? Math.min(Math.max(asked, 0), MAX_DELAY_MS)
      : DEFAULT_DELAY_MS;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, delayMs);
    // A client that goes away stops the wait too.
    request.signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  return { delayMs, servedAt: new Date().toISOString() };
}
