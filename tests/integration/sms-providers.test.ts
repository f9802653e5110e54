import pino from 'pino';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMS_NOT_SENT_MESSAGE } from '#shared/contracts/contact-verification';
import type { SmsConfig } from '../../src/server/env.ts';
import { sendSms } from '../../src/server/features/contact-verification/sms-sender.ts';
import { useIntegrationFile } from '../fixtures/integration-file.ts';
import {
  MSG91_STAND_IN_AUTH_KEY,
  startSmsStandIn,
  TWILIO_STAND_IN_ACCOUNT_SID,
  TWILIO_STAND_IN_AUTH_TOKEN,
  type SmsStandIn,
} from '../fixtures/sms-stand-ins.ts';
import { call, signUpUser } from '../fixtures/test-app.ts';

let standIn: SmsStandIn;
beforeAll(async () => {
  standIn = await startSmsStandIn();
});
afterAll(async () => standIn.close());

const TEMPLATE_ID = '65f0c0ffee0123456789abcd';
const msg91 = (authKey = MSG91_STAND_IN_AUTH_KEY): SmsConfig => ({ provider: 'msg91', apiUrl: standIn.url, authKey, templateId: TEMPLATE_ID });
const twilio = (overrides: Partial<Extract<SmsConfig, { provider: 'twilio' }>> = {}): SmsConfig => ({
  provider: 'twilio',
  apiUrl: standIn.url,
  accountSid: TWILIO_STAND_IN_ACCOUNT_SID,
  authToken: TWILIO_STAND_IN_AUTH_TOKEN,
  from: '+15005550006',
  ...overrides,
});

const { harness } = useIntegrationFile({ admin: false, depositAddresses: false, app: () => ({ sms: msg91() }) });
const silentLog = pino({ level: 'silent' });

const outboxRows = async (toNumber: string) =>
  (
    await harness.database.handle.db.execute<{
      provider: string;
      body: string | null;
      delivered: boolean;
      provider_message_id: string | null;
      last_error: string | null;
    }>(sql`select provider, body, delivered, provider_message_id, last_error from sms_outbox where to_number = ${toNumber} order by created_at`)
  ).rows;

describe('texting the one-time code through MSG91', () => {
  it('sends the documented Flow request with the authkey, and the code it carried verifies the number', async () => {
    const phone = '+919812300001';
    const user = await signUpUser(harness.app, { phone });
    const sent = await call(harness.app, { method: 'POST', url: '/api/contact-verification/phone/send-code', cookie: user.cookie });
    expect(sent.statusCode, sent.body).toBe(200);
    const request = standIn.received.findLast((entry) => entry.provider === 'msg91');
    expect(request?.path).toBe('/api/v5/flow');
    expect(request?.headers.authkey).toBe(MSG91_STAND_IN_AUTH_KEY);
    expect(request?.body).toMatchObject({
      template_id: TEMPLATE_ID,
      short_url: '0',
      recipients: [{ mobiles: '919812300001', otp: expect.stringMatching(/^\d{6}$/) }],
    });
    const code = (request?.body.recipients as { otp: string }[])[0]?.otp ?? '';

    // Sent through a provider, the outbox keeps the provider's id and never the text.
    const [row] = await outboxRows(phone);
    expect(row).toMatchObject({ provider: 'msg91', body: null, delivered: true, last_error: null });
    expect(row?.provider_message_id).toMatch(/^[0-9a-f]{24}$/);

    const verified = await call(harness.app, { method: 'POST', url: '/api/contact-verification/phone/verify', body: { code }, cookie: user.cookie });
    expect(verified.statusCode, verified.body).toBe(200);
  });

  it('answers 502 with a clear message when the provider fails, and the unsent code does not work', async () => {
    const phone = '+919812300002';
    const user = await signUpUser(harness.app, { phone });
    standIn.failNext(1);
    const sent = await call(harness.app, { method: 'POST', url: '/api/contact-verification/phone/send-code', cookie: user.cookie });
    expect(sent.statusCode).toBe(502);
    expect(sent.json().error).toMatchObject({ code: 'SMS_NOT_SENT', message: SMS_NOT_SENT_MESSAGE });
    const [row] = await outboxRows(phone);
    expect(row).toMatchObject({ provider: 'msg91', body: null, delivered: false, last_error: 'MSG91 answered HTTP 503' });
    const open = await harness.database.handle.db.execute(sql`select 1 from phone_verification_codes where user_id = ${user.id} and closed_at is null`);
    expect(open.rows).toHaveLength(0);
  });

  it('is refused by the stand-in with a wrong authkey, and the client reports it', async () => {
    const accepted = await sendSms(
      harness.database.handle.db,
      msg91('a-wrong-authkey'),
      { to: '+919812300003', text: 'x', variables: { otp: '123456' } },
      silentLog,
    );
    expect(accepted).toBe(false);
    expect((await outboxRows('+919812300003'))[0]?.last_error).toBe('MSG91 answered HTTP 401 with an error');
  });
});

describe('texting through Twilio', () => {
  it('sends the documented Create Message request with Basic auth and a form body', async () => {
    const before = standIn.received.length;
    const accepted = await sendSms(
      harness.database.handle.db,
      twilio(),
      { to: '+919812300004', text: '123456 is your code', variables: { otp: '123456' } },
      silentLog,
    );
    expect(accepted).toBe(true);
    const request = standIn.received[before];
    expect(request?.provider).toBe('twilio');
    expect(request?.path).toBe(`/2010-04-01/Accounts/${TWILIO_STAND_IN_ACCOUNT_SID}/Messages.json`);
    expect(request?.headers.authorization).toBe(`Basic ${Buffer.from(`${TWILIO_STAND_IN_ACCOUNT_SID}:${TWILIO_STAND_IN_AUTH_TOKEN}`).toString('base64')}`);
    expect(request?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(request?.body).toEqual({ To: '+919812300004', From: '+15005550006', Body: '123456 is your code' });
    const [row] = await outboxRows('+919812300004');
    expect(row).toMatchObject({ provider: 'twilio', body: null, delivered: true });
    expect(row?.provider_message_id).toMatch(/^SM[0-9a-f]{32}$/);
  });

  it('sends from a Messaging Service as MessagingServiceSid', async () => {
    const before = standIn.received.length;
    const service = `MG${'ab'.repeat(16)}`;
    expect(await sendSms(harness.database.handle.db, twilio({ from: service }), { to: '+919812300005', text: 'hello', variables: {} }, silentLog)).toBe(true);
    expect(standIn.received[before]?.body).toEqual({ To: '+919812300005', MessagingServiceSid: service, Body: 'hello' });
  });

  it('is refused by the stand-in with a wrong auth token, and the client reports the Twilio error code', async () => {
    const accepted = await sendSms(
      harness.database.handle.db,
      twilio({ authToken: 'a-wrong-auth-token-000' }),
      { to: '+919812300006', text: 'x', variables: {} },
      silentLog,
    );
    expect(accepted).toBe(false);
    expect((await outboxRows('+919812300006'))[0]?.last_error).toBe('Twilio answered HTTP 401 (Twilio error 20003)');
  });
});
