import type { FastifyBaseLogger } from 'fastify';

/** A background job of this process: one tick now and then every interval, never two ticks at once. */
export interface PeriodicWorker {
  /** Runs one tick, or answers the one already running. */
  tick(): Promise<void>;
  start(): void;
  /** Stops the interval and waits for a tick still running. */
  stop(): Promise<void>;
}

/**
 * The tick, start and stop every worker of claimed rows shares (payouts, payee validations, the chain): one tick at a
 * time per process, so that a slow provider does not pile up overlapping ticks; a failed tick is logged and the next
 * one comes at its time.
 */
export function createPeriodicWorker(options: {
  intervalSeconds: number;
  log: FastifyBaseLogger;
  /** Logged with the error when a tick fails. */
  failureMessage: string;
  tick: () => Promise<void>;
}): PeriodicWorker {
  const { intervalSeconds, log, failureMessage } = options;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  function tick(): Promise<void> {
    running ??= options.tick().finally(() => {
      running = undefined;
    });
    return running;
  }

  return {
    tick,
    start() {
      if (timer) return;
      const run = () => {
        void tick().catch((error: unknown) => log.error({ err: error }, failureMessage));
      };
      run();
      timer = setInterval(run, intervalSeconds * 1000);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      // A tick that fails was logged by the run that started it; a shutdown must go on to close the database.
      await running?.catch(() => undefined);
    },
  };
}
