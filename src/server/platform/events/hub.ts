import type { PassThrough } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { EVENT_STREAM_LIMITS, STREAM_EVENT_NAMES, type StreamEventData, type StreamEventName } from '#shared/contracts/events';
import type { AppEvent } from './publish.ts';

/** Who is at the other end of a stream decides which events it gets. */
export interface StreamAudience {
  /** Set for a signed-in user: their own wallet events only. */
  userId: string | undefined;
  sessionId: string | undefined;
  /** Admins (the admin role only, decision 040) get admin queue events. */
  canSeeAdminQueue: boolean;
}

export interface StreamSubscriber {
  readonly address: string;
  audience: StreamAudience;
  readonly stream: PassThrough;
  /** False until the 'ready' event was sent (the database LISTEN may still be connecting). */
  ready: boolean;
}

export type SessionAudienceLookup = (sessionIds: string[]) => Promise<Map<string, { canSeeAdminQueue: boolean }>>;

/** A browser that stops reading gets cut off rather than making the server buffer without limit. */
const MAX_BUFFERED_BYTES = 64 * 1024;

export class StreamLimitError extends Error {
  constructor(readonly scope: 'process' | 'address') {
    super(scope === 'process' ? 'Too many live-update streams on this server' : 'Too many live-update streams from this address');
  }
}

export function formatStreamEvent<Name extends StreamEventName>(name: Name, data: StreamEventData[Name]): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * The open event streams of one server process. Events heard from the
 * database are fanned out to every stream allowed to see them; a timer sends
 * heartbeats and re-checks the sessions behind signed-in streams.
 */
export class EventHub {
  private readonly subscribers = new Set<StreamSubscriber>();
  private readonly streamsPerAddress = new Map<string, number>();
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private sessionCheckTimer: NodeJS.Timeout | undefined;
  private closed = false;

  private readonly lookupSessions: SessionAudienceLookup;
  private readonly log: FastifyBaseLogger;
  private readonly limits: { maxStreamsPerProcess: number; maxStreamsPerAddress: number };

  constructor(options: {
    lookupSessions: SessionAudienceLookup;
    log: FastifyBaseLogger;
    limits?: { maxStreamsPerProcess: number; maxStreamsPerAddress: number };
  }) {
    this.lookupSessions = options.lookupSessions;
    this.log = options.log;
    this.limits = options.limits ?? EVENT_STREAM_LIMITS;
  }

  get size(): number {
    return this.subscribers.size;
  }

  add(subscriber: StreamSubscriber): void {
    if (this.closed || this.subscribers.size >= this.limits.maxStreamsPerProcess) throw new StreamLimitError('process');
    const fromAddress = this.streamsPerAddress.get(subscriber.address) ?? 0;
    if (fromAddress >= this.limits.maxStreamsPerAddress) throw new StreamLimitError('address');
    this.streamsPerAddress.set(subscriber.address, fromAddress + 1);
    this.subscribers.add(subscriber);
    this.startTimers();
  }

  remove(subscriber: StreamSubscriber): void {
    if (!this.subscribers.delete(subscriber)) return;
    const fromAddress = (this.streamsPerAddress.get(subscriber.address) ?? 1) - 1;
    if (fromAddress <= 0) this.streamsPerAddress.delete(subscriber.address);
    else this.streamsPerAddress.set(subscriber.address, fromAddress);
    if (!subscriber.stream.writableEnded) subscriber.stream.end();
    if (this.subscribers.size === 0) this.stopTimers();
  }

  send<Name extends StreamEventName>(subscriber: StreamSubscriber, name: Name, data: StreamEventData[Name]): void {
    this.write(subscriber, formatStreamEvent(name, data));
  }

  markReady(subscriber: StreamSubscriber): void {
    if (subscriber.ready || !this.subscribers.has(subscriber)) return;
    subscriber.ready = true;
    const { userId, canSeeAdminQueue } = subscriber.audience;
    this.send(subscriber, STREAM_EVENT_NAMES.ready, { audience: canSeeAdminQueue ? 'admin' : userId ? 'customer' : 'public' });
  }

  /** The database connection is (again) listening: new streams become ready, older ones may have missed events. */
  listening(reconnected: boolean): void {
    for (const subscriber of [...this.subscribers]) {
      if (!subscriber.ready) this.markReady(subscriber);
      else if (reconnected) this.send(subscriber, STREAM_EVENT_NAMES.resync, {});
    }
  }

  deliver(event: AppEvent): void {
    for (const subscriber of [...this.subscribers]) {
      if (!subscriber.ready) continue;
      if (event.type === 'settings.updated') this.send(subscriber, STREAM_EVENT_NAMES.settingsUpdated, {});
      else if (event.type === 'wallet.updated') {
        if (subscriber.audience.userId === event.userId) this.send(subscriber, STREAM_EVENT_NAMES.walletUpdated, { reason: event.reason });
      } else if (event.type === 'admin.queue.updated') {
        if (subscriber.audience.canSeeAdminQueue) this.send(subscriber, STREAM_EVENT_NAMES.adminQueueUpdated, {});
      }
    }
  }

  heartbeat(): void {
    for (const subscriber of [...this.subscribers]) this.write(subscriber, ': heartbeat\n\n');
  }

  /**
   * Ends the streams whose session was signed out or expired (the browser
   * reconnects as a visitor) and follows role changes.
   */
  async checkSessions(): Promise<void> {
    const signedIn = [...this.subscribers].filter((subscriber) => subscriber.audience.sessionId !== undefined);
    if (signedIn.length === 0) return;
    const sessionIds = [...new Set(signedIn.map((subscriber) => subscriber.audience.sessionId as string))];
    const live = await this.lookupSessions(sessionIds);
    for (const subscriber of signedIn) {
      const session = live.get(subscriber.audience.sessionId as string);
      if (!session) this.remove(subscriber);
      else subscriber.audience = { ...subscriber.audience, canSeeAdminQueue: session.canSeeAdminQueue };
    }
  }

  close(): void {
    this.closed = true;
    for (const subscriber of [...this.subscribers]) this.remove(subscriber);
    this.stopTimers();
  }

  private write(subscriber: StreamSubscriber, text: string): void {
    const { stream } = subscriber;
    if (stream.writableEnded || stream.destroyed) {
      this.remove(subscriber);
      return;
    }
    if (stream.writableLength > MAX_BUFFERED_BYTES) {
      this.remove(subscriber);
      return;
    }
    stream.write(text);
  }

  private startTimers(): void {
    if (this.heartbeatTimer) return;
    this.heartbeatTimer = setInterval(() => this.heartbeat(), EVENT_STREAM_LIMITS.heartbeatMilliseconds);
    this.heartbeatTimer.unref();
    this.sessionCheckTimer = setInterval(() => {
      this.checkSessions().catch((error: unknown) => this.log.warn({ err: error }, 'Could not re-check the sessions of live-update streams'));
    }, EVENT_STREAM_LIMITS.sessionCheckMilliseconds);
    this.sessionCheckTimer.unref();
  }

  private stopTimers(): void {
    clearInterval(this.heartbeatTimer);
    clearInterval(this.sessionCheckTimer);
    this.heartbeatTimer = undefined;
    this.sessionCheckTimer = undefined;
  }
}
