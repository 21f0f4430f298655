/**
 * Builds the apps the browser tests serve, once per run: the demo and the fixture app, each
 * into its own folder under .switchyard/. Fails in CI without Chromium.
 */
import { execFileSync } from 'node:child_process';
import { CHROMIUM_PATH, hasChromium, INSTALL_HINT } from './chromium';

/** `E2E_BUILD_ROOT` lets two runs on one machine build into folders of their own. */
const ROOT = process.env.E2E_BUILD_ROOT ?? '.switchyard';

export const BUILDS = {
  demo: { app: 'src/app', out: `${ROOT}/e2e-demo` },
  basic: { app: 'test/fixtures/basic', out: `${ROOT}/e2e-basic` },
  routing: { app: 'test/fixtures/routing', out: `${ROOT}/e2e-routing` },
} as const;

export default function setup(): void {
  if (!hasChromium()) {
    const message = `Chromium was not found at ${CHROMIUM_PATH}. ${INSTALL_HINT}`;
    if (process.env.CI) throw new Error(message);
    console.warn(`\n⚠ Browser tests skipped. ${message}\n`);
    return;
  }
  for (const { app, out } of Object.values(BUILDS).filter(
    (b) => !process.env.E2E_ONLY || b.app.includes(process.env.E2E_ONLY),
  )) {
    execFileSync(process.execPath, ['bin/switchyard.js', 'build', '--app', app, '--out', out], {
      stdio: 'inherit',
    });
  }
}
