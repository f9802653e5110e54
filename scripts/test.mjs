// Runs every check in order and stops at the first failure: types, lint, unit, integration
// (embedded PostgreSQL, and TEST_DATABASE_URL too when set), production build, browser tests.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const reportDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'rupeedesk-reports-'));
const totals = { passed: 0, failed: 0, skipped: 0 };

function run(title, command, args, extraEnvironment = {}) {
  console.log(`\n=== ${title} ===`);
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...extraEnvironment } });
  if (result.status !== 0) {
    console.error(`\n${title} failed.`);
    summarize();
    process.exit(result.status ?? 1);
  }
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
  run(`${project} tests${extraEnvironment ? ' (TEST_DATABASE_URL)' : ''}`, 'npx', ['vitest', 'run', '--project', project, '--reporter=default', '--reporter=json', `--outputFile.json=${path.join(reportDirectory, reportName)}`], extraEnvironment);

// Three configurations: everything, src/shared without Node's and the DOM's types, src/web without Node's.
run('type check', 'npm', ['run', 'typecheck', '--silent']);
run('lint', 'npx', ['eslint', '--max-warnings', '0', '.']);
vitest('unit', 'vitest-unit.json');
vitest('integration', 'vitest-integration.json');
if (process.env.TEST_DATABASE_URL) vitest('integration', 'vitest-integration-external.json', { INTEGRATION_DATABASE: 'external' });
run('production build', 'npm', ['run', 'build', '--silent']);
vitest('bundle', 'vitest-bundle.json');
run('browser tests (Chromium)', 'npx', ['playwright', 'test'], { PLAYWRIGHT_JSON_OUTPUT_NAME: path.join(reportDirectory, 'playwright.json') });
summarize();
if (totals.failed > 0) process.exit(1);
