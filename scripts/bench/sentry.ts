/**
 * What Sentry costs the bench page: the first-load JavaScript without Sentry, with a DSN and
 * tracing off (a traces rate of 0), and with tracing on, which must all be the same bytes (the
 * SDK and its tracing load after hydration, in chunks of their own, also weighed); and server
 * CPU per request with tracing off, side by side with the server without Sentry. The DSN points
 * at a closed port on 127.0.0.1: nothing leaves the machine.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { firstLoadJs, sizesOf, type Sizes } from './bytes';
import { loadRun, pairRounds, type LoadFigures, type PairedFigures } from './load';
import { startServer, stopServer, type RunningServer } from './servers';

type FirstLoadJs = Awaited<ReturnType<typeof firstLoadJs>>;

export interface SentryFigures {
  firstLoadJs: { noSentry: FirstLoadJs; tracingOff: FirstLoadJs; tracingOn: FirstLoadJs };
  /** The chunks a page with a DSN loads after hydration: the SDK, and tracing with a traces rate. */
  afterHydration: { sdk: Sizes; tracing: Sizes };
  /**
   * Medians of alternating runs on the bench page, no compression, and of each round's ratio
   * (tracing off to no Sentry); `paired` is missing in results from before rounds were paired.
   */
  cpu: { noSentry: LoadFigures; tracingOff: LoadFigures; paired?: PairedFigures };
}

/** Port 9 (discard) on loopback: connections are refused at once. */
const DSN = 'http://public@127.0.0.1:9/1';

export async function measureSentry(options: {
  outDir: string;
  /** The server without Sentry, already running from `outDir`. */
  noSentry: RunningServer;
  page: string;
  reps: number;
  seconds: number;
  warmUpSeconds: number;
  medians: (runs: LoadFigures[]) => LoadFigures;
}): Promise<SentryFigures> {
  const { outDir, noSentry, page } = options;
  const sentryServer = (rate: string) =>
    startServer('switchyard', outDir, { env: { SENTRY_DSN: DSN, SENTRY_TRACES_SAMPLE_RATE: rate } });
  const tracingOff = await sentryServer('0');
  try {
    const runs: { noSentry: LoadFigures[]; tracingOff: LoadFigures[] } = { noSentry: [], tracingOff: [] };
    for (let rep = 0; rep < options.reps; rep++) {
      const order = rep % 2 ? (['tracingOff', 'noSentry'] as const) : (['noSentry', 'tracingOff'] as const);
      for (const which of order) {
        const server = which === 'noSentry' ? noSentry : tracingOff;
        const warmUp = rep === 0 ? options.warmUpSeconds : 0.3;
        runs[which].push(await loadRun(server, page, options.seconds, {}, warmUp));
      }
    }
    const tracingOn = await sentryServer('1');
    try {
      const manifest = JSON.parse(readFileSync(join(outDir, 'client/.vite/manifest.json'), 'utf8')) as Record<
        string,
        { file: string }
      >;
      const chunk = (src: string) => sizesOf(`${tracingOn.origin}/${manifest[src]!.file}`);
      return {
        firstLoadJs: {
          noSentry: await firstLoadJs(noSentry.origin, page),
          tracingOff: await firstLoadJs(tracingOff.origin, page),
          tracingOn: await firstLoadJs(tracingOn.origin, page),
        },
        afterHydration: {
          sdk: await chunk('client/sentry-browser.ts'),
          tracing: await chunk('client/sentry-tracing.ts'),
        },
        cpu: {
          noSentry: options.medians(runs.noSentry),
          tracingOff: options.medians(runs.tracingOff),
          paired: pairRounds(runs.tracingOff, runs.noSentry),
        },
      };
    } finally {
      await stopServer(tracingOn);
    }
  } finally {
    await stopServer(tracingOff);
  }
}
