import http from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { AppContext } from '../../context.ts';

/**
 * Prometheus metrics of one server process: requests by route and status, the
 * database pool, money operations by kind and outcome, the admin queues and
 * the open live-update streams. Each app has its own registry.
 */

/** The money operations, by the route that performs them. */
const MONEY_OPERATION_OF_ROUTE: Record<string, string> = {
  'POST /api/deposits': 'deposit_request',
  'POST /api/withdrawals': 'withdrawal_request',
  'POST /api/transfers': 'transfer_request',
  'POST /api/admin/deposits/:id/approve': 'deposit_approve',
  'POST /api/admin/deposits/:id/reject': 'deposit_reject',
  'POST /api/admin/withdrawals/:id/approve': 'withdrawal_approve',
  'POST /api/admin/withdrawals/:id/reject': 'withdrawal_reject',
  'POST /api/admin/transfers/:id/approve': 'transfer_approve',
  'POST /api/admin/transfers/:id/reject': 'transfer_reject',
};

function outcomeOf(statusCode: number): string {
  if (statusCode < 400) return 'succeeded';
  if (statusCode === 429) return 'throttled';
  if (statusCode < 500) return 'refused';
  return statusCode === 503 ? 'unavailable' : 'failed';
}

export class AppMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly requestSeconds: Histogram<'method' | 'route' | 'status'>;
  private readonly moneyOperations: Counter<'kind' | 'outcome'>;
  private eventStreamCount: () => number = () => 0;

  constructor(context: AppContext) {
    const registry = this.registry;
    collectDefaultMetrics({ register: registry });
    this.requests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by route pattern and status',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
    });
    this.requestSeconds = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time to answer HTTP requests, by route pattern and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    });
    this.moneyOperations = new Counter({
      name: 'money_operations_total',
      help: 'Money requests and admin decisions, by kind and outcome (succeeded, refused, throttled, unavailable, failed)',
      labelNames: ['kind', 'outcome'],
      registers: [registry],
    });
    registerPoolGauges(registry, context.database.pool);
    registerEventStreamGauge(registry, () => this.eventStreamCount());
    registerPendingRequestsGauge(registry, context.database.db);
  }

  /** The event routes tell how many streams are open. */
  countEventStreamsWith(count: () => number): void {
    this.eventStreamCount = count;
  }

  recordResponse(request: FastifyRequest, reply: FastifyReply): void {
    const route = request.routeOptions.url ?? 'unmatched';
    const labels = { method: request.method, route, status: String(reply.statusCode) };
    this.requests.inc(labels);
    this.requestSeconds.observe(labels, reply.elapsedTime / 1000);
    const kind = MONEY_OPERATION_OF_ROUTE[`${request.method} ${route}`];
    if (kind) this.moneyOperations.inc({ kind, outcome: outcomeOf(reply.statusCode) });
  }
}

/** The database pool's connections, idle connections and waiting queries, read at each scrape. */
function registerPoolGauges(registry: Registry, pool: AppContext['database']['pool']): void {
  new Gauge({
    name: 'db_pool_connections',
    help: 'Open connections of the database pool',
    registers: [registry],
    collect() {
      this.set(pool.totalCount);
    },
  });
  new Gauge({
    name: 'db_pool_idle_connections',
    help: 'Idle connections of the database pool',
    registers: [registry],
    collect() {
      this.set(pool.idleCount);
    },
  });
  new Gauge({
    name: 'db_pool_waiting_requests',
    help: 'Queries waiting for a database connection',
    registers: [registry],
    collect() {
      this.set(pool.waitingCount);
    },
  });
}

function registerEventStreamGauge(registry: Registry, eventStreams: () => number): void {
  new Gauge({
    name: 'event_streams_open',
    help: 'Open live-update streams on this server',
    registers: [registry],
    collect() {
      this.set(eventStreams());
    },
  });
}

/** The admin queues' sizes, counted at each scrape. */
function registerPendingRequestsGauge(registry: Registry, db: AppContext['database']['db']): void {
  new Gauge({
    name: 'pending_requests',
    help: 'Deposits, withdrawals and transfers waiting for an admin decision',
    labelNames: ['kind'],
    registers: [registry],
    async collect() {
      // During a database outage the last known sizes stay; the scrape itself must not fail.
      const result = await db
        .execute<{ kind: string; count: number }>(
          sql`
          select 'deposit' as kind, count(*)::int as count from usdt_deposits where status = 'pending'
          union all select 'withdrawal', count(*)::int from withdrawal_requests where status = 'pending'
          union all select 'transfer', count(*)::int from transfers where status = 'pending'`,
        )
        .catch(() => ({ rows: [] }));
      for (const row of result.rows) this.set({ kind: row.kind }, row.count);
    },
  });
}

function bearerMatches(header: string | undefined, token: string): boolean {
  const expected = Buffer.from(`Bearer ${token}`);
  const given = Buffer.from(header ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * GET /metrics on the app's own port, only with METRICS_TOKEN set and sent as
 * a bearer token. Without a token (and with METRICS_PORT, which has its own
 * server) the route does not exist on the public port.
 */
export function registerMetrics(app: FastifyInstance, metrics: AppMetrics, config: AppContext['config']): void {
  app.addHook('onResponse', async (request, reply) => metrics.recordResponse(request, reply));
  const token = config.metricsToken;
  if (!token || config.metricsPort !== undefined) return;
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!bearerMatches(request.headers.authorization, token)) {
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer')
        .send({ error: { code: 'UNAUTHENTICATED', message: 'A valid metrics token is required.' } });
    }
    return reply.header('content-type', metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}

/** The metrics on a port of their own (METRICS_PORT), for a network only the monitoring system reaches. */
export async function startMetricsServer(metrics: AppMetrics, options: { host: string; port: number; token: string | undefined }): Promise<http.Server> {
  const server = http.createServer((request, response) => {
    if (request.method !== 'GET' || request.url !== '/metrics') {
      response.writeHead(404).end();
      return;
    }
    if (options.token && !bearerMatches(request.headers.authorization, options.token)) {
      response.writeHead(401, { 'www-authenticate': 'Bearer' }).end();
      return;
    }
    metrics.registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      () => response.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return server;
}
