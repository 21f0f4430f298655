#!/usr/bin/env node
/**
 * `npm test`: the whole gate, stopping at the first failure: the demo's route types (generated
 * and git-ignored, so a fresh clone has none before this step); then the static checks — format,
 * lint, types (each folder with its own tsconfig, so shared/ is checked without DOM or Node
 * types) — as many at once as the machine has cores, each one's output printed whole when it
 * ends; then every test (unit, integration and browser) in one Vitest run. Ends with one summary
 * line.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Buffer } from 'node:buffer';

const TSCONFIGS = ['shared', 'client', 'server', 'src', 'test', '.'];
const RESULTS = '.switchyard/test-results.json';

/** A dependency's command, as a script for this Node. @param {string} name */
const bin = (name) => `node_modules/.bin/${name}`;

/** @typedef {[name: string, script: string, args: string[]]} Step */

/** @type {Step} First, as lint and tsc read them: the demo's links are checked against its own routes. */
const routeTypes = ['route types', 'bin/switchyard.js', ['typegen', '--app', 'src/app']];
/** @type {Step[]} Independent of each other: they run side by side. The longest first. */
const checks = [
  ['lint', bin('eslint'), ['.', '--max-warnings=0']],
  ...TSCONFIGS.map((dir) => /** @type {Step} */ ([`types ${dir}`, bin('tsc'), ['-p', dir]])),
  ['format', bin('prettier'), ['--check', '.']],
];
/** @type {Step} */
const tests = [
  'tests',
  bin('vitest'),
  ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${RESULTS}`],
];

mkdirSync('.switchyard', { recursive: true });
rmSync(RESULTS, { force: true }); // a summary must never come from an earlier run
runInForeground(routeTypes);
await runSideBySide(checks, Math.max(1, availableParallelism()));
runInForeground(tests);
summarize();

/** @param {Step} step */
function runInForeground([name, script, args]) {
  console.log(`\n▶ ${name}`);
  const result = spawnSync(process.execPath, [script, ...args], { stdio: 'inherit' });
  if (result.status !== 0) fail(name, result.status);
}

/**
 * Runs the steps `lanes` at a time. Each step's output is kept and printed as one block when it
 * ends, so that two steps' lines never interleave; the first failure stops the others.
 * @param {Step[]} steps @param {number} lanes
 */
async function runSideBySide(steps, lanes) {
  const queue = [...steps];
  /** @type {Set<import('node:child_process').ChildProcess>} */
  const running = new Set();
  const lane = async () => {
    for (let step = queue.shift(); step; step = queue.shift()) {
      const [name, script, args] = step;
      const started = Date.now();
      const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
      running.add(child);
      /** @type {Buffer[]} */
      const output = [];
      child.stdout.on('data', (chunk) => output.push(chunk));
      child.stderr.on('data', (chunk) => output.push(chunk));
      const status = await new Promise((resolve) => child.on('close', (code) => resolve(code)));
      running.delete(child);
      console.log(`\n▶ ${name} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
      process.stdout.write(Buffer.concat(output));
      if (status !== 0) {
        for (const other of running) other.kill();
        fail(name, status);
      }
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
}

/** @param {string} name @param {number | null} status */
function fail(name, status) {
  console.error(`\n✗ ${name} failed`);
  summarize();
  process.exit(status ?? 1);
}

function summarize() {
  try {
    const report = JSON.parse(readFileSync(RESULTS, 'utf8'));
    const skipped = report.numPendingTests + report.numTodoTests;
    console.log(
      `\ntests: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${skipped} skipped`,
    );
  } catch {
    // No test ran (an earlier step failed): the step's own message says why.
  }
}
