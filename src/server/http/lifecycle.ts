import type { FastifyInstance } from 'fastify';

/**
 * Where this process is in its shutdown. Serving: /api/ready answers 200.
 * Draining (from the signal on): /api/ready answers 503 so that load balancers
 * stop sending traffic, but the server still accepts connections and answers
 * every request, each answer closing its keep-alive connection; a request
 * already on its way when the signal came is answered, not reset. Closing (after
 * the drain): no new connections; a request that still arrives on an open one
 * gets a 503 in the app's error shape with Retry-After (src/server/app.ts).
 */
export class ServerLifecycle {
  private stage: 'serving' | 'draining' | 'closing' = 'serving';
  private readonly drainEnd: Promise<void>;
  private endDrainNow: () => void = () => undefined;
  private readonly closingStart: Promise<void>;
  private startClosingNow: () => void = () => undefined;

  constructor() {
    this.drainEnd = new Promise((resolve) => (this.endDrainNow = resolve));
    this.closingStart = new Promise((resolve) => (this.startClosingNow = resolve));
  }

  /** True from the signal on, through the closing that follows the drain. */
  get draining(): boolean {
    return this.stage !== 'serving';
  }

  get closing(): boolean {
    return this.stage === 'closing';
  }

  startDraining(): void {
    if (this.stage === 'serving') this.stage = 'draining';
  }

  /** Ends the drain before its time: a second SIGTERM or Ctrl-C asks to stop at once. */
  endDrain(): void {
    this.endDrainNow();
  }

  /** Resolves when the drain has ended and the server stops taking connections. */
  whenClosing(): Promise<void> {
    return this.closingStart;
  }

  /** Waits for the drain's end: after `milliseconds`, or earlier when endDrain is called. */
  async drainFor(milliseconds: number): Promise<void> {
    this.startDraining();
    const timer = setTimeout(() => this.endDrainNow(), milliseconds);
    try {
      await this.drainEnd;
    } finally {
      clearTimeout(timer);
    }
    this.stage = 'closing';
    this.startClosingNow();
  }
}

/**
 * How long the server keeps accepting after /api/ready turned 503: long enough
 * for a load balancer polling every second or two to take it out, short enough
 * that drain, grace and stopping the database fit in the 10 seconds Docker and
 * Kubernetes allow by default.
 */
export const SHUTDOWN_DRAIN_MILLISECONDS = 3_000;

/** How long in-flight requests may take to finish after the drain before their connections are cut. */
export const SHUTDOWN_GRACE_MILLISECONDS = 5_000;

/** How soon a client refused by a closing server should try again (another server will answer). */
export const SHUTDOWN_RETRY_AFTER_SECONDS = 1;

export const SHUTTING_DOWN_MESSAGE = 'This server is shutting down. Please try again.';

/**
 * Stops the HTTP server: a drain during which everything is still answered,
 * then no new connections, in-flight requests finish, idle keep-alive
 * connections close at once, and whatever is still open after the grace period
 * is cut, so the process exits in bounded time even with clients holding
 * connections open.
 */
export async function drainAndClose(
  app: FastifyInstance,
  lifecycle: ServerLifecycle,
  { drainMilliseconds = SHUTDOWN_DRAIN_MILLISECONDS, graceMilliseconds = SHUTDOWN_GRACE_MILLISECONDS } = {},
): Promise<void> {
  await lifecycle.drainFor(drainMilliseconds);
  const cutOff = setTimeout(() => app.server.closeAllConnections(), graceMilliseconds);
  cutOff.unref();
  // Connections that finish their current answer afterwards become idle; close those as they appear.
  const idleSweep = setInterval(() => app.server.closeIdleConnections(), 250);
  idleSweep.unref();
  try {
    await app.close();
  } finally {
    clearTimeout(cutOff);
    clearInterval(idleSweep);
  }
}
