// Runs every check and stops at the first failure: types and lint side by side, then unit and
// integration tests (embedded PostgreSQL, and TEST_DATABASE_URL too when set) while the production
// build runs beside them, then the bundle budget, the fault tests (server processes of that build
// killed and stopped) and the browser tests, all on that one build. Side by side only where nothing
// is shared: the build writes dist/, which no unit or integration test reads; the fault and browser
// tests each start servers and measure nothing by the clock, but they stay one after the other
// because both load the two cores fully and the browser tests' waits are bounded.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const reportDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'rupeedesk-reports-'));
const totals = { passed: 0, failed: 0, skipped: 0 };

/** A child's exit status; one that could not start, or was ended by a signal, counts as 1. */
function exitStatus(child) {
  return new Promise((resolve) => {
    child.once('error', (error) => {
      console.error(error.message);
      resolve(1);
    });
    child.once('close', (code) => resolve(code ?? 1));
  });
}

/**
 * Runs a step with its output shown as it comes. Awaited, not run synchronously, so that a step
 * started beside it keeps having its output read and never stalls on a full pipe.
 */
async function run(title, command, args, extraEnvironment = {}) {
  console.log(`\n=== ${title} ===`);
  const status = await exitStatus(spawn(command, args, { stdio: 'inherit', env: { ...process.env, ...extraEnvironment } }));
  if (status !== 0) fail(title, status);
}

/** The steps started beside others and not yet finished: a failure stops them. */
const background = new Set();

/** Starts a step whose output is kept and printed when it is awaited, so that steps side by side do not interleave. */
function start(title, command, args) {
  // A process group of its own, so that stopping it stops what npm and npx started too.
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: process.env, detached: true });
  const output = [];
  child.stdout.on('data', (chunk) => output.push(chunk));
  child.stderr.on('data', (chunk) => output.push(chunk));
  const exited = exitStatus(child);
  const step = {
    child,
    async finish() {
      const status = await exited;
      background.delete(step);
      console.log(`\n=== ${title} ===`);
      process.stdout.write(Buffer.concat(output));
      if (status !== 0) fail(title, status);
    },
  };
  background.add(step);
  return step;
}

function stopBackground() {
  for (const step of background) {
    try {
      process.kill(-step.child.pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
  }
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stopBackground();
    process.exit(130);
  });
}

function fail(title, status) {
  console.error(`\n${title} failed.`);
  stopBackground();
  summarize();
  process.exit(status ?? 1);
}

function countVitest(file) {
  if (!fs.existsSync(file)) return;
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  totals.passed += report.numPassedTests ?? 0;
  totals.failed += report.numFailedTests ?? 0;
  totals.skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
}

function countPlaywright(file) {
  if (!fs.existsSync(file)) return;
  const stats = JSON.parse(fs.readFileSync(file, 'utf8')).stats ?? {};
  totals.passed += (stats.expected ?? 0) + (stats.flaky ?? 0);
  totals.failed += stats.unexpected ?? 0;
  totals.skipped += stats.skipped ?? 0;
}

function summarize() {
  for (const file of fs.readdirSync(reportDirectory)) {
    const full = path.join(reportDirectory, file);
    if (file.startsWith('vitest')) countVitest(full);
    else countPlaywright(full);
  }
  console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
}

const vitest = (project, reportName, extraEnvironment) =>
  run(
    `${project} tests${extraEnvironment ? ' (TEST_DATABASE_URL)' : ''}`,
    'npx',
    ['vitest', 'run', '--project', project, '--reporter=default', '--reporter=json', `--outputFile.json=${path.join(reportDirectory, reportName)}`],
    extraEnvironment,
  );

// Three configurations: everything, src/shared without Node's and the DOM's types, src/web without Node's.
const typeCheck = start('type check', 'npm', ['run', 'typecheck', '--silent']);
const lint = start('lint', 'npx', ['eslint', '--max-warnings', '0', '.']);
const formatCheck = start('format check', 'npx', ['prettier', '--check', '--log-level', 'warn', '.']);
await typeCheck.finish();
await lint.finish();
await formatCheck.finish();
const build = start('production build', 'npm', ['run', 'build', '--silent']);
await vitest('unit', 'vitest-unit.json');
await vitest('integration', 'vitest-integration.json');
if (process.env.TEST_DATABASE_URL) await vitest('integration', 'vitest-integration-external.json', { INTEGRATION_DATABASE: 'external' });
await build.finish();
await vitest('bundle', 'vitest-bundle.json');
await vitest('faults', 'vitest-faults.json');
await run('browser tests (Chromium)', 'npx', ['playwright', 'test'], { PLAYWRIGHT_JSON_OUTPUT_NAME: path.join(reportDirectory, 'playwright.json') });
summarize();
if (totals.failed > 0) process.exit(1);
