import { PassThrough } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { EventHub, StreamLimitError, type StreamAudience, type StreamSubscriber } from '../../src/server/platform/events/hub.ts';
import { parseAppEvent } from '../../src/server/platform/events/listener.ts';

const USER_A = '00000000-0000-4000-8000-00000000000a';
const USER_B = '00000000-0000-4000-8000-00000000000b';

function hub(live: Map<string, { canSeeAdminQueue: boolean }> = new Map(), limits = { maxStreamsPerProcess: 10, maxStreamsPerAddress: 5 }) {
  return new EventHub({ log: pino({ level: 'silent' }), lookupSessions: async () => live, limits });
}

function subscriber(audience: Partial<StreamAudience> = {}, address = '10.0.0.1'): StreamSubscriber & { text(): string } {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  return { address, stream, ready: false, audience: { userId: undefined, sessionId: undefined, canSeeAdminQueue: false, ...audience }, text: () => text };
}

describe('EventHub', () => {
  it('sends each event only to the streams allowed to see it', () => {
    const events = hub();
    const visitor = subscriber();
    const alice = subscriber({ userId: USER_A, sessionId: 's-a' });
    const admin = subscriber({ userId: USER_B, sessionId: 's-b', canSeeAdminQueue: true });
    for (const each of [visitor, alice, admin]) events.add(each);
    events.listening(false);

    events.deliver({ type: 'wallet.updated', userId: USER_A, reason: 'deposit.approved' });
    events.deliver({ type: 'admin.queue.updated' });
    events.deliver({ type: 'settings.updated' });

    expect(visitor.text()).toBe('event: ready\ndata: {"audience":"public"}\n\nevent: settings.updated\ndata: {}\n\n');
    expect(alice.text()).toContain('event: wallet.updated\ndata: {"reason":"deposit.approved"}\n\n');
    expect(alice.text()).not.toContain('admin.queue.updated');
    expect(admin.text()).toContain('event: admin.queue.updated');
    expect(admin.text()).not.toContain('wallet.updated');
    events.close();
  });

  it('holds events back until the stream is ready, then asks ready streams to resync after a reconnect', () => {
    const events = hub();
    const early = subscriber();
    events.add(early);
    events.deliver({ type: 'settings.updated' });
    expect(early.text()).toBe('');
    events.listening(false);
    events.listening(true);
    expect(early.text()).toBe('event: ready\ndata: {"audience":"public"}\n\nevent: resync\ndata: {}\n\n');
    events.close();
  });

  it('writes heartbeat comments', () => {
    const events = hub();
    const one = subscriber();
    events.add(one);
    events.heartbeat();
    expect(one.text()).toBe(': heartbeat\n\n');
    events.close();
  });

  it('caps streams per address and per process', () => {
    const events = hub(new Map(), { maxStreamsPerProcess: 3, maxStreamsPerAddress: 2 });
    events.add(subscriber({}, '10.0.0.1'));
    events.add(subscriber({}, '10.0.0.1'));
    expect(() => events.add(subscriber({}, '10.0.0.1'))).toThrow(StreamLimitError);
    events.add(subscriber({}, '10.0.0.2'));
    expect(() => events.add(subscriber({}, '10.0.0.3'))).toThrow(StreamLimitError);
    expect(events.size).toBe(3);
    events.close();
    expect(events.size).toBe(0);
  });

  it('cuts off a stream whose reader stopped reading', () => {
    const events = hub();
    const stuck: StreamSubscriber = {
      address: '10.0.0.9',
      stream: new PassThrough({ highWaterMark: 16 }),
      ready: true,
      audience: { userId: undefined, sessionId: undefined, canSeeAdminQueue: false },
    };
    events.add(stuck);
    for (let index = 0; index < 10_000 && events.size > 0; index += 1) events.deliver({ type: 'settings.updated' });
    expect(events.size).toBe(0);
    expect(stuck.stream.writableEnded).toBe(true);
  });

  it('ends streams whose session is gone and follows role changes', async () => {
    const live = new Map([['s-admin', { canSeeAdminQueue: false }]]);
    const events = hub(live);
    const signedOut = subscriber({ userId: USER_A, sessionId: 's-gone' });
    const demoted = subscriber({ userId: USER_B, sessionId: 's-admin', canSeeAdminQueue: true });
    events.add(signedOut);
    events.add(demoted);
    await events.checkSessions();
    expect(signedOut.stream.writableEnded).toBe(true);
    expect(events.size).toBe(1);
    expect(demoted.audience.canSeeAdminQueue).toBe(false);
    events.close();
  });
});

describe('parseAppEvent', () => {
  it('accepts the published shapes and ignores anything else', () => {
    expect(parseAppEvent('{"type":"settings.updated"}')).toEqual({ type: 'settings.updated' });
    expect(parseAppEvent(JSON.stringify({ type: 'wallet.updated', userId: USER_A, reason: 'x' }))).toEqual({
      type: 'wallet.updated',
      userId: USER_A,
      reason: 'x',
    });
    expect(parseAppEvent('{"type":"wallet.updated","userId":"nope","reason":"x"}')).toBeUndefined();
    expect(parseAppEvent('{"type":"unknown"}')).toBeUndefined();
    expect(parseAppEvent('not json')).toBeUndefined();
    expect(parseAppEvent(undefined)).toBeUndefined();
    expect(parseAppEvent(`{"type":"settings.updated","pad":"${'x'.repeat(8_000)}"}`)).toBeUndefined();
  });
});
