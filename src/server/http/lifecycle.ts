import type { FastifyInstance } from 'fastify';

/**
 * Whether this process still takes new work. A load balancer polls /api/ready and
 * stops sending traffic once it answers 503; meanwhile every answer asks the
 * client to close its keep-alive connection, so no connection outlives the drain.
 */
export class ServerLifecycle {
  private drainingSince: number | undefined;

  get draining(): boolean {
    return this.drainingSince !== undefined;
  }

  startDraining(): void {
    this.drainingSince ??= Date.now();
  }
}

/** How long in-flight requests may take to finish after SIGTERM before their connections are cut. */
export const SHUTDOWN_GRACE_MILLISECONDS = 7_000;

/**
 * Stops the HTTP server: no new requests, in-flight ones finish, idle keep-alive
 * connections close at once, and whatever is still open after the grace period
 * is cut, so the process exits in bounded time even with clients holding
 * connections open.
 */
export async function drainAndClose(app: FastifyInstance, lifecycle: ServerLifecycle, graceMilliseconds = SHUTDOWN_GRACE_MILLISECONDS): Promise<void> {
  lifecycle.startDraining();
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
