#!/usr/bin/env node
/**
 * `npm test`: the whole gate, stopping at the first failure. First the demo's route types
 * (generated and git-ignored, so a fresh clone has none before this step). Then two lanes side
 * by side, as the machine has two kinds of work:
 *
 * - the browser tests (Vitest's `e2e` project: Chromium, servers, databases), one file at a
 *   time, their output as it comes. They spend much of their time waiting on a browser or a
 *   socket, and run for most of the gate;
 * - everything else, which keeps a core busy meanwhile: the static checks — format, lint, types
 *   (each folder with its own tsconfig, so shared/ is checked without DOM or Node types) — then
 *   the unit and integration tests (Vitest's `unit` project). Each step's output is printed whole
 *   when it ends, so that its lines never interleave with another's.
 *
 * Run one after the other (Vitest runs a project whose files go one at a time after the others),
 * the browser tests' waits left a core idle: side by side, the gate takes about the time of its
 * browser tests alone. Ends with one summary line over both test runs.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { Buffer } from 'node:buffer';

const TSCONFIGS = ['shared', 'client', 'server', 'src', 'test', '.'];
/** Each test run's JSON report, for the summary. */
const UNIT_RESULTS = '.switchyard/test-results-unit.json';
const E2E_RESULTS = '.switchyard/test-results-e2e.json';
const RESULTS = [UNIT_RESULTS, E2E_RESULTS];

/** A dependency's command, as a script for this Node. @param {string} name */
const bin = (name) => `node_modules/.bin/${name}`;

/** @typedef {[name: string, script: string, args: string[]]} Step */

/** @type {Step} First, as lint and tsc read them: the demo's links are checked against its own routes. */
const routeTypes = ['route types', 'bin/switchyard.js', ['typegen', '--app', 'src/app']];
/** @param {'unit' | 'e2e'} project @param {string} results @returns {string[]} */
const vitest = (project, results) => [
  'run',
  '--project',
  project,
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${results}`,
];
/** @type {Step[]} One after the other, beside the browser tests: the longest first. */
const others = [
  ['lint', bin('eslint'), ['.', '--max-warnings=0']],
  ...TSCONFIGS.map((dir) => /** @type {Step} */ ([`types ${dir}`, bin('tsc'), ['-p', dir]])),
  ['format', bin('prettier'), ['--check', '.']],
  ['unit and integration tests', bin('vitest'), vitest('unit', UNIT_RESULTS)],
];
/** @type {Step} */
const browserTests = ['browser tests', bin('vitest'), vitest('e2e', E2E_RESULTS)];

/** @type {Set<import('node:child_process').ChildProcess>} What runs now, stopped if a step fails. */
const running = new Set();

// The steps run in process groups of their own, which a terminal's Ctrl-C does not reach.
for (const [signal, code] of /** @type {const} */ ([
  ['SIGINT', 130],
  ['SIGTERM', 143],
]))
  process.on(signal, () => {
    stopAll();
    process.exit(code);
  });

mkdirSync('.switchyard', { recursive: true });
for (const file of RESULTS) rmSync(file, { force: true }); // a summary must never come from an earlier run
runInForeground(routeTypes);
await Promise.all([runLive(browserTests), runInTurn(others)]);
summarize();

/** @param {Step} step */
function runInForeground([name, script, args]) {
  console.log(`\n▶ ${name}`);
  const result = spawnSync(process.execPath, [script, ...args], { stdio: 'inherit' });
  if (result.status !== 0) fail(name, result.status);
}

/**
 * Runs `step` with its output passed through as it comes (another lane's blocks may fall
 * between its lines, never inside one).
 * @param {Step} step
 */
async function runLive([name, script, args]) {
  console.log(`\n▶ ${name} (their output as it comes)`);
  const started = Date.now();
  const child = start(script, args);
  child.stdout.on('data', (chunk) => process.stdout.write(chunk));
  child.stderr.on('data', (chunk) => process.stderr.write(chunk));
  const status = await exitOf(child);
  console.log(`\n▶ ${name} ended (${seconds(started)} s)`);
  if (status !== 0) fail(name, status);
}

/**
 * Runs the steps one after the other, each one's output kept and printed as one block when it
 * ends.
 * @param {Step[]} steps
 */
async function runInTurn(steps) {
  for (const [name, script, args] of steps) {
    const started = Date.now();
    const child = start(script, args);
    /** @type {Buffer[]} */
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    const status = await exitOf(child);
    console.log(`\n▶ ${name} (${seconds(started)} s)`);
    process.stdout.write(Buffer.concat(output));
    if (status !== 0) fail(name, status);
  }
}

/**
 * A step's process, in a process group of its own: stopping the step stops all it started
 * (Vitest's workers and the servers they spawned), not only the process itself.
 * @param {string} script @param {string[]} args
 */
function start(script, args) {
  const child = spawn(process.execPath, [script, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  running.add(child);
  return child;
}

/** Stops every step still running. Chromium exits by itself when its test worker is gone. */
function stopAll() {
  for (const child of running) {
    try {
      process.kill(-(/** @type {number} */ (child.pid)), 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
}

/** @param {import('node:child_process').ChildProcess} child @returns {Promise<number | null>} */
function exitOf(child) {
  return new Promise((resolve) =>
    child.on('close', (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
}

/** @param {number} since */
function seconds(since) {
  return ((Date.now() - since) / 1000).toFixed(0);
}

/** @param {string} name @param {number | null} status */
function fail(name, status) {
  stopAll();
  console.error(`\n✗ ${name} failed`);
  summarize();
  process.exit(status ?? 1);
}

function summarize() {
  const counts = { passed: 0, failed: 0, skipped: 0, runs: 0 };
  for (const file of RESULTS) {
    try {
      const report = JSON.parse(readFileSync(file, 'utf8'));
      counts.passed += report.numPassedTests;
      counts.failed += report.numFailedTests;
      counts.skipped += report.numPendingTests + report.numTodoTests;
      counts.runs += 1;
    } catch {
      // That run did not finish (a step failed first): the step's own message says why.
    }
  }
  if (counts.runs === 0) return;
  const partial = counts.runs < RESULTS.length ? ' (one of the two test runs did not finish)' : '';
  console.log(
    `\ntests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped${partial}`,
  );
}
