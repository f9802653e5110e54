import { PassThrough } from 'node:stream';
import { canReadOperatorFigures } from '#shared/access';
import { EVENT_STREAM_LIMITS, EVENT_STREAM_PATH } from '#shared/contracts/events';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import type { ApiApp } from '../../http/types.ts';
import { EventHub, StreamLimitError, type StreamSubscriber } from './hub.ts';
import { DatabaseEventListener } from './listener.ts';
import { EVENTS_CHANNEL } from './publish.ts';
import { findLiveSessionAudiences } from './repository.ts';

/**
 * GET /api/events: server-sent events fed by one LISTEN connection per server
 * process, so a change committed through any process reaches every open page.
 */
export function registerEventRoutes(app: ApiApp, context: AppContext): void {
  const { maxStreamsPerProcess, maxStreamsPerAddress } = EVENT_STREAM_LIMITS;
  const hub = new EventHub({
    log: app.log,
    lookupSessions: (sessionIds) => findLiveSessionAudiences(context.database.db, sessionIds, context.sessionSettings),
    // Not scaled by RATE_LIMIT_SCALE: a scaled cap would let one client at one address hold every slot of the process.
    limits: { maxStreamsPerProcess, maxStreamsPerAddress },
  });
  const listener = new DatabaseEventListener({
    clientConfig: context.database.pool.options,
    channel: EVENTS_CHANNEL,
    log: app.log,
    onEvent: (event) => hub.deliver(event),
    onListening: (reconnected) => hub.listening(reconnected),
  });

  app.metrics?.countEventStreamsWith(() => hub.size);
  // Open streams would keep close() waiting for their requests to finish: end them first.
  app.addHook('preClose', async () => hub.close());
  app.addHook('onClose', async () => listener.stop());

  app.get(
    EVENT_STREAM_PATH,
    {
      schema: {
        tags: ['events'],
        summary:
          'Live updates as server-sent events: settings.updated for everyone, wallet.updated for the signed-in user, admin.queue.updated for the admin area',
      },
    },
    async (request, reply) => {
      const session = request.session;
      const stream = new PassThrough();
      const subscriber: StreamSubscriber = {
        address: request.ip,
        stream,
        ready: false,
        audience: {
          userId: session?.userId,
          sessionId: session?.sessionId,
          canSeeAdminQueue: session ? canReadOperatorFigures(session.role) : false,
        },
      };
      try {
        hub.add(subscriber);
      } catch (error) {
        if (!(error instanceof StreamLimitError)) throw error;
        if (error.scope === 'address') throw new AppError(429, 'RATE_LIMITED', 'Too many open pages. Close some and try again.');
        throw new AppError(503, 'SERVICE_UNAVAILABLE', 'Live updates are busy. Please try again later.');
      }
      // The response's close (not the request's) reports a browser that went away.
      reply.raw.on('close', () => hub.remove(subscriber));
      stream.write(`retry: ${EVENT_STREAM_LIMITS.retryMilliseconds}\n\n`);
      // 'ready' goes out once LISTEN is active (now, or when the listener connects), so a
      // client that saw it cannot miss a change committed afterwards.
      listener.start();
      if (listener.isListening) hub.markReady(subscriber);
      return reply.header('content-type', 'text/event-stream; charset=utf-8').header('x-accel-buffering', 'no').send(stream);
    },
  );
}
