#!/usr/bin/env node
/**
 * `npm test`: the whole gate, in order, stopping at the first failure: the demo's route types
 * (generated and git-ignored, so a fresh clone has none before this step), format, lint, types
 * (each folder with its own tsconfig, so shared/ is checked without DOM or Node types), then
 * every test (unit, integration and browser) in one Vitest run. Ends with one summary line.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';

const TSCONFIGS = ['shared', 'client', 'server', 'src', 'test', '.'];
const RESULTS = '.switchyard/test-results.json';

/** A dependency's command, as a script for this Node. @param {string} name */
const bin = (name) => `node_modules/.bin/${name}`;

/** @type {[name: string, script: string, args: string[]][]} */
const steps = [
  // First, as lint and tsc read them: the demo's links are checked against its own routes.
  ['route types', 'bin/switchyard.js', ['typegen', '--app', 'src/app']],
  ['format', bin('prettier'), ['--check', '.']],
  ['lint', bin('eslint'), ['.', '--max-warnings=0']],
  ...TSCONFIGS.map(
    (dir) => /** @type {[string, string, string[]]} */ ([`types ${dir}`, bin('tsc'), ['-p', dir]]),
  ),
  ['tests', bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${RESULTS}`]],
];

mkdirSync('.switchyard', { recursive: true });
rmSync(RESULTS, { force: true }); // a summary must never come from an earlier run
for (const [name, script, args] of steps) {
  console.log(`\n▶ ${name}`);
  const result = spawnSync(process.execPath, [script, ...args], { stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`\n✗ ${name} failed`);
    summarize();
    process.exit(result.status ?? 1);
  }
}
summarize();

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
