import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import { z } from 'zod';
import type { AppEvent } from './publish.ts';

/** What other features publish with NOTIFY (see publish.ts); anything else on the channel is ignored. */
const appEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('settings.updated') }),
  z.object({ type: z.literal('wallet.updated'), userId: z.uuid(), reason: z.string().max(100) }),
  z.object({ type: z.literal('admin.queue.updated') }),
]);

/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more; a longer one is not ours. */
const MAX_PAYLOAD_LENGTH = 8_000;
/**
 * Short and capped at 2 s: after a database outage, pages hear of changes again
 * within about 2 s of its return. One connection attempt every 2 s is no load.
 */
const RECONNECT_DELAYS_MILLISECONDS = [250, 500, 1_000, 2_000] as const;
/** A LISTEN connection can die silently (half-open TCP); a cheap query at this interval finds out. */
const PING_INTERVAL_MILLISECONDS = 30_000;
const QUERY_TIMEOUT_MILLISECONDS = 5_000;
export const LISTENER_APPLICATION_NAME = 'rupeedesk-events';

export interface DatabaseEventListenerOptions {
  clientConfig: pg.ClientConfig;
  channel: string;
  log: FastifyBaseLogger;
  onEvent(event: AppEvent): void;
  /** Called each time LISTEN succeeds; `reconnected` is true after a dropped connection came back. */
  onListening(reconnected: boolean): void;
}

export function parseAppEvent(payload: string | undefined): AppEvent | undefined {
  if (!payload || payload.length >= MAX_PAYLOAD_LENGTH) return undefined;
  try {
    const parsed = appEventSchema.safeParse(JSON.parse(payload));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One dedicated connection that LISTENs on the events channel. It is started on
 * first use and reconnects with a growing delay whenever the connection drops,
 * until stop() is called.
 */
export class DatabaseEventListener {
  private client: pg.Client | undefined;
  private started = false;
  private stopped = false;
  private listening = false;
  private hasListenedBefore = false;
  private failedAttempts = 0;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private pingTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: DatabaseEventListenerOptions) {}

  get isListening(): boolean {
    return this.listening;
  }

  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    void this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.listening = false;
    clearTimeout(this.reconnectTimer);
    clearInterval(this.pingTimer);
    const client = this.client;
    this.client = undefined;
    if (client) await client.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({
      ...this.options.clientConfig,
      keepAlive: true,
      application_name: LISTENER_APPLICATION_NAME,
      query_timeout: QUERY_TIMEOUT_MILLISECONDS,
    });
    this.client = client;
    client.on('notification', (message) => {
      if (message.channel !== this.options.channel) return;
      const event = parseAppEvent(message.payload);
      if (event) this.options.onEvent(event);
      else this.options.log.warn({ channel: message.channel }, 'Ignored a malformed event notification');
    });
    client.on('error', (error) => this.dropped(client, error));
    client.on('end', () => this.dropped(client, undefined));
    try {
      await client.connect();
      await client.query(`listen ${client.escapeIdentifier(this.options.channel)}`);
    } catch (error) {
      this.dropped(client, error);
      return;
    }
    if (this.stopped || this.client !== client) {
      await client.end().catch(() => undefined);
      return;
    }
    this.failedAttempts = 0;
    this.listening = true;
    const reconnected = this.hasListenedBefore;
    this.hasListenedBefore = true;
    clearInterval(this.pingTimer);
    this.pingTimer = setInterval(() => {
      client.query('select 1').catch((error: unknown) => this.dropped(client, error));
    }, PING_INTERVAL_MILLISECONDS);
    this.pingTimer.unref();
    this.options.onListening(reconnected);
  }

  /** Forgets a broken connection (once, however many of error/end/ping report it) and schedules the next one. */
  private dropped(client: pg.Client, error: unknown): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.listening = false;
    clearInterval(this.pingTimer);
    client.removeAllListeners('notification');
    client.on('error', () => undefined);
    void client.end().catch(() => undefined);
    if (this.stopped) return;
    const delay = RECONNECT_DELAYS_MILLISECONDS[Math.min(this.failedAttempts, RECONNECT_DELAYS_MILLISECONDS.length - 1)] ?? 2_000;
    this.failedAttempts += 1;
    this.options.log.warn({ err: error, retryInMilliseconds: delay }, 'Live-update connection to the database lost; reconnecting');
    this.reconnectTimer = setTimeout(() => void this.connect(), delay);
    this.reconnectTimer.unref();
  }
}
