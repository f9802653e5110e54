import { PassThrough } from 'node:stream';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  CODE_EXPIRED_MESSAGE,
  CODE_SHAPE_MESSAGE,
  EMAIL_CHANGE_SENT_MESSAGE,
  EMAIL_CHANGED_MESSAGE,
  EMAIL_TAKEN_MESSAGE,
  EMAIL_VERIFIED_MESSAGE,
  PHONE_VERIFIED_MESSAGE,
  VERIFICATION_LINK_EXPIRED_MESSAGE,
  VERIFICATION_LINK_INVALID_MESSAGE,
  VERIFICATION_LINK_SENT_MESSAGE,
  VERIFICATION_LINK_USED_MESSAGE,
  wrongCodeMessage,
} from '#shared/contracts/contact-verification';
import { WRONG_CURRENT_PASSWORD_MESSAGE } from '#shared/contracts/auth';
import { useIntegrationFile } from '../fixtures/integration-file.ts';
import { waitForMail } from '../fixtures/mail-server.ts';
import { call, signUpUser, signUpPinVerifiedUser, uniqueEmail, type SignedUpUser } from '../fixtures/test-app.ts';

let logText = '';
const logStream = new PassThrough();
logStream.on('data', (chunk: Buffer) => {
  logText += chunk.toString('utf8');
});

const { harness, mail } = useIntegrationFile({ mailServer: true, admin: false, depositAddresses: false, app: { logDestination: logStream } });

const query = async <Row extends Record<string, unknown>>(statement: ReturnType<typeof sql>) => (await harness.database.handle.db.execute<Row>(statement)).rows;

async function linkTokenIn(to: string, subject: string): Promise<string> {
  const text = await waitForMail(mail, to, subject);
  const link = /https?:\/\/\S+\/verify-email\?token=([A-Za-z0-9_%-]+)/.exec(text);
  if (!link?.[1]) throw new Error(`no verification link in the mail to ${to}`);
  return decodeURIComponent(link[1]);
}

const verifyLink = (token: string, cookie?: string) =>
  call(harness.app, { method: 'POST', url: '/api/contact-verification/email/verify', body: { token }, cookie });
const resend = (user: SignedUpUser) => call(harness.app, { method: 'POST', url: '/api/contact-verification/email/resend', cookie: user.cookie });
const sendCode = (user: SignedUpUser) => call(harness.app, { method: 'POST', url: '/api/contact-verification/phone/send-code', cookie: user.cookie });
const enterCode = (user: SignedUpUser, code: unknown) =>
  call(harness.app, { method: 'POST', url: '/api/contact-verification/phone/verify', body: { code }, cookie: user.cookie });

async function emailVerified(userId: string): Promise<boolean | undefined> {
  return (await query<{ verified: boolean }>(sql`select email_verified_at is not null as verified from users where id = ${userId}`))[0]?.verified;
}

async function phoneVerified(userId: string): Promise<boolean | undefined> {
  return (await query<{ verified: boolean }>(sql`select phone_verified_at is not null as verified from profiles where user_id = ${userId}`))[0]?.verified;
}

/** Moves every link and code of the account back in time, as if the pause between sends had passed. */
async function pauseOver(userId: string): Promise<void> {
  await harness.database.handle.db.execute(sql`update email_verification_tokens set created_at = created_at - interval '61 seconds' where user_id = ${userId}`);
  await harness.database.handle.db.execute(sql`update phone_verification_codes set created_at = created_at - interval '61 seconds' where user_id = ${userId}`);
}

/** The code in the newest text message to this number (no SMS_PROVIDER: the outbox keeps the text). */
async function newestCodeTo(phone: string): Promise<string> {
  const [row] = await query<{ body: string }>(sql`select body from sms_outbox where to_number = ${phone} order by created_at desc limit 1`);
  const code = /\b(\d{6})\b/.exec(row?.body ?? '')?.[1];
  if (!code) throw new Error(`no code texted to ${phone}`);
  return code;
}

let phoneCounter = 0;
function uniquePhone(): string {
  phoneCounter += 1;
  return `+9198${String(Date.now() % 1_000_000).padStart(6, '0')}${String(phoneCounter).padStart(2, '0')}`;
}

describe('the e-mail verification link', () => {
  it('is e-mailed at sign-up, stored only as a hash, and verifies the address once', async () => {
    const user = await signUpUser(harness.app);
    expect(await emailVerified(user.id)).toBe(false);
    const token = await linkTokenIn(user.email, 'verify your e-mail address');
    const stored = await query<{ token_hash: Buffer; expires_in_hours: number }>(
      sql`select token_hash, round(extract(epoch from expires_at - created_at) / 3600)::int as expires_in_hours from email_verification_tokens where user_id = ${user.id}`,
    );
    expect(stored).toHaveLength(1);
    expect(stored[0]?.expires_in_hours).toBe(24);
    expect(stored[0]?.token_hash.toString('utf8')).not.toContain(token);
    expect(stored[0]?.token_hash.toString('base64url')).not.toBe(token);

    const status = await call(harness.app, { url: '/api/contact-verification', cookie: user.cookie });
    expect(status.json()).toMatchObject({ email: user.email, emailVerifiedAt: null, phoneVerifiedAt: null });

    const first = await verifyLink(token);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ message: EMAIL_VERIFIED_MESSAGE, email: user.email });
    expect(await emailVerified(user.id)).toBe(true);

    const again = await verifyLink(token);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatchObject({ code: 'VERIFICATION_LINK_USED', message: VERIFICATION_LINK_USED_MESSAGE });
    expect((await resend(user)).statusCode).toBe(409);
  });

  it('stops working after 24 hours', async () => {
    const user = await signUpUser(harness.app);
    const token = await linkTokenIn(user.email, 'verify your e-mail address');
    await harness.database.handle.db.execute(sql`update email_verification_tokens set expires_at = now() - interval '1 second' where user_id = ${user.id}`);
    const answer = await verifyLink(token);
    expect(answer.statusCode).toBe(410);
    expect(answer.json().error).toMatchObject({ code: 'VERIFICATION_LINK_EXPIRED', message: VERIFICATION_LINK_EXPIRED_MESSAGE });
    expect(await emailVerified(user.id)).toBe(false);
  });

  it('refuses made-up and malformed tokens without changing anything', async () => {
    const user = await signUpUser(harness.app);
    for (const token of ['x'.repeat(43), 'short', '', 'a'.repeat(64)]) {
      const answer = await verifyLink(token);
      expect(answer.statusCode).toBe(400);
      expect(answer.json().error.message).toBe(VERIFICATION_LINK_INVALID_MESSAGE);
    }
    expect((await call(harness.app, { method: 'POST', url: '/api/contact-verification/email/verify', body: { token: 'x'.repeat(65) } })).statusCode).toBe(400);
    expect(await emailVerified(user.id)).toBe(false);
  });

  it("verifies only the account the link was sent for: another user's session opening it does not verify theirs", async () => {
    const owner = await signUpUser(harness.app);
    const other = await signUpUser(harness.app);
    const token = await linkTokenIn(owner.email, 'verify your e-mail address');
    expect((await verifyLink(token, other.cookie)).statusCode).toBe(200);
    expect(await emailVerified(owner.id)).toBe(true);
    expect(await emailVerified(other.id)).toBe(false);
  });

  it('resends with a pause between sends and at most 5 links a day, answering 429 with the reason', async () => {
    const user = await signUpUser(harness.app);
    const tooSoon = await resend(user);
    expect(tooSoon.statusCode).toBe(429);
    expect(tooSoon.json().error.message).toMatch(/^Please wait \d+ seconds? before asking for another e-mail\.$/);
    expect(Number(tooSoon.headers['retry-after'])).toBeGreaterThan(0);

    for (let send = 2; send <= 5; send += 1) {
      await pauseOver(user.id);
      const answer = await resend(user);
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.json().message).toBe(VERIFICATION_LINK_SENT_MESSAGE);
    }
    await pauseOver(user.id);
    const overLimit = await resend(user);
    expect(overLimit.statusCode).toBe(429);
    expect(overLimit.json().error.message).toBe('5 verification e-mails were already sent to this account in the last 24 hours. Please try again tomorrow.');
    expect((await query(sql`select 1 from email_verification_tokens where user_id = ${user.id}`)).length).toBe(5);

    // The newest link works; the earlier ones are used up with it.
    const token = await linkTokenIn(user.email, 'verify your e-mail address');
    expect((await verifyLink(token)).statusCode).toBe(200);
    expect((await query(sql`select 1 from email_verification_tokens where user_id = ${user.id} and used_at is null`)).length).toBe(0);
  });
});

describe('changing the e-mail address', () => {
  const changeEmail = (user: SignedUpUser, body: Record<string, unknown>) =>
    call(harness.app, { method: 'POST', url: '/api/contact-verification/email/change', body, cookie: user.cookie });

  it('needs the current password: a wrong one is refused and nothing is sent or changed', async () => {
    const user = await signUpPinVerifiedUser(harness.app);
    const newEmail = uniqueEmail('new');
    const answer = await changeEmail(user, { currentPassword: 'not-the-password', newEmail });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().error.fields).toEqual({ currentPassword: WRONG_CURRENT_PASSWORD_MESSAGE });
    expect(await query(sql`select 1 from email_verification_tokens where email = ${newEmail}`)).toHaveLength(0);
    expect((await query<{ email: string }>(sql`select email from users where id = ${user.id}`))[0]?.email).toBe(user.email);
  });

  it('refuses bad and taken addresses with a field message, and needs a PIN-verified session', async () => {
    const user = await signUpPinVerifiedUser(harness.app);
    const taken = await signUpUser(harness.app);
    const invalid = await changeEmail(user, { currentPassword: user.password, newEmail: 'not-an-email' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().error.fields.newEmail).toBe('Email is invalid');
    const same = await changeEmail(user, { currentPassword: user.password, newEmail: user.email.toUpperCase() });
    expect(same.statusCode).toBe(400);
    expect(same.json().error.fields.newEmail).toBe('This is already your e-mail address.');
    const inUse = await changeEmail(user, { currentPassword: user.password, newEmail: taken.email.toUpperCase() });
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json().error.fields.newEmail).toBe(EMAIL_TAKEN_MESSAGE);
    const withoutPin = await signUpUser(harness.app);
    expect((await changeEmail(withoutPin, { currentPassword: withoutPin.password, newEmail: uniqueEmail() })).statusCode).toBe(403);
    expect(await query(sql`select 1 from email_verification_tokens where purpose = 'change' and user_id in (${user.id}, ${withoutPin.id})`)).toHaveLength(0);
  });

  it('sends a link to the new address, tells the old one, and changes and verifies only when the link is opened', async () => {
    const user = await signUpPinVerifiedUser(harness.app);
    const newEmail = uniqueEmail('moved');
    await pauseOver(user.id);
    const answer = await changeEmail(user, { currentPassword: user.password, newEmail });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().message).toBe(EMAIL_CHANGE_SENT_MESSAGE);
    const notice = await waitForMail(mail, user.email, 'a change of your e-mail address was asked for');
    expect(notice).toContain(newEmail);

    // Until the link is opened, the old address stays the account's.
    expect((await query<{ email: string }>(sql`select email from users where id = ${user.id}`))[0]?.email).toBe(user.email);
    const status = await call(harness.app, { url: '/api/contact-verification', cookie: user.cookie });
    expect(status.json()).toMatchObject({ email: user.email, pendingEmail: newEmail });

    const token = await linkTokenIn(newEmail, 'confirm your new e-mail address');
    const opened = await verifyLink(token);
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json()).toEqual({ message: EMAIL_CHANGED_MESSAGE, email: newEmail });
    expect((await query<{ email: string }>(sql`select email from users where id = ${user.id}`))[0]?.email).toBe(newEmail);
    expect(await emailVerified(user.id)).toBe(true);
    await waitForMail(mail, user.email, 'your e-mail address was changed');

    // The old sign-up link is used up with it, and the account signs in with the new address only.
    const oldLink = await linkTokenIn(user.email, 'verify your e-mail address');
    expect((await verifyLink(oldLink)).statusCode).toBe(409);
    expect((await call(harness.app, { method: 'POST', url: '/api/auth/login', body: { email: newEmail, password: user.password } })).statusCode).toBe(200);
    expect((await call(harness.app, { method: 'POST', url: '/api/auth/login', body: { email: user.email, password: user.password } })).statusCode).toBe(401);
  });

  it('does not take an address that another account took while the link waited', async () => {
    const user = await signUpPinVerifiedUser(harness.app);
    const newEmail = uniqueEmail('raced');
    await pauseOver(user.id);
    expect((await changeEmail(user, { currentPassword: user.password, newEmail })).statusCode).toBe(200);
    const token = await linkTokenIn(newEmail, 'confirm your new e-mail address');
    await signUpUser(harness.app, { email: newEmail.toUpperCase() });
    const opened = await verifyLink(token);
    expect(opened.statusCode).toBe(409);
    expect(opened.json().error.code).toBe('EMAIL_TAKEN');
    expect((await query<{ email: string }>(sql`select email from users where id = ${user.id}`))[0]?.email).toBe(user.email);
  });
});

describe('the mobile one-time code', () => {
  it('is 6 digits, stored salted and hashed, and sets phone_verified_at when entered', async () => {
    const phone = uniquePhone();
    const user = await signUpUser(harness.app, { phone });
    const sent = await sendCode(user);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().message).toBe(`We sent a 6-digit code to ${phone.slice(0, 3)}****${phone.slice(-4)}. It works for 10 minutes.`);
    const code = await newestCodeTo(phone);
    const [stored] = await query<{ code_hash: Buffer; code_salt: Buffer; minutes: number }>(
      sql`select code_hash, code_salt, round(extract(epoch from expires_at - created_at) / 60)::int as minutes from phone_verification_codes where user_id = ${user.id}`,
    );
    expect(stored?.minutes).toBe(10);
    expect(stored?.code_hash.length).toBe(32);
    expect(stored?.code_hash.toString('latin1')).not.toContain(code);
    expect(stored?.code_hash.toString('hex')).not.toContain(Buffer.from(code).toString('hex'));

    const answer = await enterCode(user, code);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().message).toBe(PHONE_VERIFIED_MESSAGE);
    expect(await phoneVerified(user.id)).toBe(true);
    expect((await enterCode(user, code)).statusCode).toBe(409);
    // The send is logged (by the outbox row's id), but neither the code nor the text that carries it is.
    expect(logText).toContain('stored in the SMS outbox');
    expect(logText).not.toContain(code);
  });

  it('dies after 5 wrong entries: the right code no longer works', async () => {
    const phone = uniquePhone();
    const user = await signUpUser(harness.app, { phone });
    expect((await sendCode(user)).statusCode).toBe(200);
    const code = await newestCodeTo(phone);
    const wrong = code === '000000' ? '000001' : '000000';
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      const answer = await enterCode(user, wrong);
      expect(answer.statusCode).toBe(400);
      expect(answer.json().error).toMatchObject({
        code: 'CODE_INCORRECT',
        message: wrongCodeMessage(5 - attempt),
        fields: { code: wrongCodeMessage(5 - attempt) },
      });
    }
    const late = await enterCode(user, code);
    expect(late.statusCode).toBe(400);
    expect(late.json().error).toMatchObject({ code: 'CODE_EXPIRED', message: CODE_EXPIRED_MESSAGE });
    expect(await phoneVerified(user.id)).toBe(false);
    expect(logText).not.toContain(code);
  });

  it('stops working after 10 minutes', async () => {
    const phone = uniquePhone();
    const user = await signUpUser(harness.app, { phone });
    expect((await sendCode(user)).statusCode).toBe(200);
    const code = await newestCodeTo(phone);
    await harness.database.handle.db.execute(sql`update phone_verification_codes set expires_at = now() - interval '1 second' where user_id = ${user.id}`);
    const answer = await enterCode(user, code);
    expect(answer.statusCode).toBe(400);
    expect(answer.json().error.code).toBe('CODE_EXPIRED');
    expect(await phoneVerified(user.id)).toBe(false);
  });

  it('refuses malformed codes with a field message and counts nothing', async () => {
    const phone = uniquePhone();
    const user = await signUpUser(harness.app, { phone });
    expect((await sendCode(user)).statusCode).toBe(200);
    for (const code of ['12345', '1234567', 'abcdef', '１２３４５６', 123456, null]) {
      const answer = await enterCode(user, code);
      expect(answer.statusCode).toBe(400);
      expect(answer.json().error.fields.code).toBe(CODE_SHAPE_MESSAGE);
    }
    expect(
      (await query<{ failed_attempts: number }>(sql`select failed_attempts from phone_verification_codes where user_id = ${user.id}`))[0]?.failed_attempts,
    ).toBe(0);
  });

  it("cannot be used by another account: the other user's code never matches theirs", async () => {
    const owner = await signUpUser(harness.app, { phone: uniquePhone() });
    const intruderPhone = uniquePhone();
    const intruder = await signUpUser(harness.app, { phone: intruderPhone });
    expect((await sendCode(owner)).statusCode).toBe(200);
    const ownersCode = await newestCodeTo((await query<{ phone: string }>(sql`select phone from profiles where user_id = ${owner.id}`))[0]?.phone ?? '');
    // Without a code of its own the intruder has nothing to match against.
    expect((await enterCode(intruder, ownersCode)).json().error.code).toBe('CODE_EXPIRED');
    expect((await sendCode(intruder)).statusCode).toBe(200);
    if (ownersCode !== (await newestCodeTo(intruderPhone))) expect((await enterCode(intruder, ownersCode)).json().error.code).toBe('CODE_INCORRECT');
    expect(await phoneVerified(intruder.id)).toBe(false);
    expect(await phoneVerified(owner.id)).toBe(false);
    expect((await enterCode(owner, ownersCode)).statusCode).toBe(200);
  });

  it('limits sends per account: a pause between codes and 5 a day', async () => {
    const phone = uniquePhone();
    const user = await signUpUser(harness.app, { phone });
    expect((await sendCode(user)).statusCode).toBe(200);
    const tooSoon = await sendCode(user);
    expect(tooSoon.statusCode).toBe(429);
    expect(tooSoon.json().error.message).toMatch(/^Please wait \d+ seconds? before asking for another code\.$/);
    for (let send = 2; send <= 5; send += 1) {
      await pauseOver(user.id);
      expect((await sendCode(user)).statusCode).toBe(200);
    }
    await pauseOver(user.id);
    const overLimit = await sendCode(user);
    expect(overLimit.statusCode).toBe(429);
    expect(overLimit.json().error.message).toBe('5 verification codes were already sent to this account in the last 24 hours. Please try again tomorrow.');
    expect(await query(sql`select 1 from sms_outbox where to_number = ${phone}`)).toHaveLength(5);
    // Only the newest code works.
    const [first] = await query<{ id: string }>(sql`select id from phone_verification_codes where user_id = ${user.id} and closed_at is null`);
    expect(first).toBeDefined();
    expect(await query(sql`select 1 from phone_verification_codes where user_id = ${user.id} and closed_at is null`)).toHaveLength(1);
  });

  it('limits sends per number across accounts: 5 a day to one number', async () => {
    const phone = uniquePhone();
    for (let account = 1; account <= 5; account += 1) {
      const user = await signUpUser(harness.app, { phone });
      expect((await sendCode(user)).statusCode).toBe(200);
    }
    const sixth = await signUpUser(harness.app, { phone });
    const refused = await sendCode(sixth);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.message).toBe('5 verification codes were already sent to this mobile number in the last 24 hours. Please try again tomorrow.');
    expect(await query(sql`select 1 from sms_outbox where to_number = ${phone}`)).toHaveLength(5);
  });

  it('is cleared when the phone number changes, and a code sent to the old number no longer works', async () => {
    const user = await signUpPinVerifiedUser(harness.app, { phone: uniquePhone() });
    expect((await sendCode(user)).statusCode).toBe(200);
    const oldPhone = (await query<{ phone: string }>(sql`select phone from profiles where user_id = ${user.id}`))[0]?.phone ?? '';
    expect((await enterCode(user, await newestCodeTo(oldPhone))).statusCode).toBe(200);
    expect(await phoneVerified(user.id)).toBe(true);

    const sameNumber = await call(harness.app, {
      method: 'PATCH',
      url: '/api/me',
      body: { fullName: 'Asha Rao Renamed', phone: oldPhone },
      cookie: user.cookie,
    });
    expect(sameNumber.statusCode).toBe(200);
    expect(await phoneVerified(user.id)).toBe(true);

    const newPhone = uniquePhone();
    const changed = await call(harness.app, { method: 'PATCH', url: '/api/me', body: { fullName: 'Asha Rao', phone: newPhone }, cookie: user.cookie });
    expect(changed.statusCode).toBe(200);
    expect(await phoneVerified(user.id)).toBe(false);

    await pauseOver(user.id);
    expect((await sendCode(user)).statusCode).toBe(200);
    const newCode = await newestCodeTo(newPhone);
    // A code sent to the new number, then the number changed again: the code proves nothing about the third number.
    expect(
      (await call(harness.app, { method: 'PATCH', url: '/api/me', body: { fullName: 'Asha Rao', phone: uniquePhone() }, cookie: user.cookie })).statusCode,
    ).toBe(200);
    expect((await enterCode(user, newCode)).json().error.code).toBe('CODE_EXPIRED');
    expect(await phoneVerified(user.id)).toBe(false);
  });
});

describe('the sign-up trail', () => {
  it('records address, time, browser and the position the customer allowed', async () => {
    const user = await signUpUser(harness.app, { geolocation: { status: 'granted', latitude: 19.076, longitude: 72.8777, accuracyMeters: 35 } });
    const [row] = await query<{
      ip_address: string;
      user_agent: string | null;
      geolocation_status: string;
      latitude: number;
      longitude: number;
      accuracy_meters: number;
      signed_up_at: string;
    }>(sql`select * from signup_trail where user_id = ${user.id}`);
    expect(row).toMatchObject({
      ip_address: '127.0.0.1',
      user_agent: 'lightMyRequest',
      geolocation_status: 'granted',
      latitude: 19.076,
      longitude: 72.8777,
      accuracy_meters: 35,
    });
    expect(Number.isNaN(Date.parse(row?.signed_up_at ?? ''))).toBe(false);
  });

  it('records a refusal, or nothing asked, without blocking the sign-up', async () => {
    const refused = await signUpUser(harness.app, { geolocation: { status: 'denied' } });
    const silent = await signUpUser(harness.app);
    const rows = await query<{ user_id: string; geolocation_status: string; latitude: number | null }>(
      sql`select user_id, geolocation_status, latitude from signup_trail where user_id in (${refused.id}, ${silent.id})`,
    );
    expect(rows.find((row) => row.user_id === refused.id)).toMatchObject({ geolocation_status: 'denied', latitude: null });
    expect(rows.find((row) => row.user_id === silent.id)).toMatchObject({ geolocation_status: 'not_asked', latitude: null });
  });

  it('refuses an impossible position with a field message and opens no account', async () => {
    const email = uniqueEmail();
    const body = {
      fullName: 'Asha Rao',
      email,
      phone: '+919876543210',
      password: 'correct-horse',
      pin: '2957',
      geolocation: { status: 'granted', latitude: 91, longitude: 0, accuracyMeters: 5 },
    };
    const answer = await call(harness.app, { method: 'POST', url: '/api/auth/signup', body });
    expect(answer.statusCode).toBe(400);
    expect(Object.keys(answer.json().error.fields ?? {}).some((field) => field.startsWith('geolocation'))).toBe(true);
    expect(await query(sql`select 1 from users where email = ${email}`)).toHaveLength(0);
  });
});
