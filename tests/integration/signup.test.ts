import { WEAK_PIN_MESSAGE } from '#shared/contracts/pin';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { call, sessionCookieOf, signUpUser, uniqueEmail } from '../fixtures/test-app.ts';
import { useIntegrationFile } from '../fixtures/integration-file.ts';

const { harness } = useIntegrationFile({ depositAddresses: false, admin: false });

const validBody = () => ({
  fullName: 'Ravi Kumar',
  email: uniqueEmail('signup'),
  phone: '+919812345678',
  password: 'secret12',
  pin: '3851',
});

async function countUsers(): Promise<number> {
  const result = await harness.database.handle.db.execute<{ count: string }>(sql`select count(*)::text as count from users`);
  return Number(result.rows[0]?.count);
}

describe('sign-up', () => {
  it('creates the account, signs in and answers /api/me', async () => {
    const body = validBody();
    const response = await call(harness.app, { method: 'POST', url: '/api/auth/signup', body });
    expect(response.statusCode).toBe(201);
    const user = response.json().user;
    expect(user).toMatchObject({
      email: body.email,
      name: 'Ravi Kumar',
      phone: '+919812345678',
      role: 'user',
      vipLevel: 'normal',
      balanceUsdt: '0.000000',
      hasPin: true,
      pinVerified: false,
    });
    expect(user.referralCode).toMatch(/^RUPEE[A-Z0-9]{5}$/);
    const me = await call(harness.app, { url: '/api/me', cookie: sessionCookieOf(response) });
    expect(me.statusCode).toBe(200);
    expect(me.json().id).toBe(user.id);
  });

  it.each([
    ['fullName', '', 'Full name is required'],
    ['fullName', '   ', 'Full name is required'],
    ['email', '', 'Email is required'],
    ['email', 'not-an-email', 'Email is invalid'],
    ['password', '', 'Password is required'],
    ['password', '12345', 'Password must be at least 6 characters'],
    ['pin', '', 'PIN is required'],
    ['pin', '12a4', 'PIN must be exactly 4 digits'],
    ['pin', '12345', 'PIN must be exactly 4 digits'],
    // One weak-PIN rule everywhere: sign-up refuses what Change PIN refuses.
    ['pin', '1234', WEAK_PIN_MESSAGE],
    ['pin', '0000', WEAK_PIN_MESSAGE],
    ['pin', '9876', WEAK_PIN_MESSAGE],
    ['phone', '', 'Phone number is required'],
    ['phone', '919812345678', 'Phone must start with + (country code)'],
    ['phone', '+91 98x45', 'Phone number must start with + (e.g., +919876543210)'],
    ['phone', '+9112345', 'Phone number must have at least 7 digits after country code'],
    ['phone', '+1234567890123456', 'Phone number can have at most 15 digits'],
  ])('refuses %s = %j with "%s" and creates nothing', async (field, value, message) => {
    const before = await countUsers();
    const response = await call(harness.app, { method: 'POST', url: '/api/auth/signup', body: { ...validBody(), [field]: value } });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('VALIDATION_FAILED');
    expect(response.json().error.fields[field]).toBe(message);
    expect(await countUsers()).toBe(before);
  });

  it('refuses a missing field with its required message', async () => {
    const { fullName: _omitted, ...rest } = validBody();
    const response = await call(harness.app, { method: 'POST', url: '/api/auth/signup', body: rest });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields.fullName).toBe('Full name is required');
  });

  it('refuses an e-mail that is already registered, whatever its case', async () => {
    const first = validBody();
    expect((await call(harness.app, { method: 'POST', url: '/api/auth/signup', body: first })).statusCode).toBe(201);
    const before = await countUsers();
    const response = await call(harness.app, { method: 'POST', url: '/api/auth/signup', body: { ...validBody(), email: first.email.toUpperCase() } });
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toMatchObject({ code: 'EMAIL_TAKEN', message: 'This email is already registered. Please log in instead.' });
    expect(await countUsers()).toBe(before);
  });

  it('refuses an unknown referral code as a field error', async () => {
    const before = await countUsers();
    const response = await call(harness.app, { method: 'POST', url: '/api/auth/signup', body: { ...validBody(), referralCode: 'RUPEEZZZZZ' } });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields.referralCode).toBe('This referral code does not exist. Check it or leave the field empty.');
    expect(await countUsers()).toBe(before);
  });

  it('links the new user to the referrer whose code was given (in any case)', async () => {
    const referrer = await signUpUser(harness.app);
    const referred = await signUpUser(harness.app, { referralCode: referrer.referralCode.toLowerCase() });
    const result = await harness.database.handle.db.execute<{ referred_by_user_id: string }>(
      sql`select referred_by_user_id from profiles where user_id = ${referred.id}`,
    );
    expect(result.rows[0]?.referred_by_user_id).toBe(referrer.id);
  });

  it('creates user, profile, wallet and PIN in one transaction: a failing last step leaves no user behind', async () => {
    const { db } = harness.database.handle;
    await db.execute(sql`create function fail_pin_insert() returns trigger language plpgsql as $$ begin raise exception 'simulated failure'; end; $$`);
    await db.execute(sql`create trigger fail_pin_insert before insert on user_pins for each row execute function fail_pin_insert()`);
    try {
      const before = await countUsers();
      const body = validBody();
      const response = await call(harness.app, { method: 'POST', url: '/api/auth/signup', body });
      expect(response.statusCode).toBe(500);
      expect(await countUsers()).toBe(before);
      const leftovers = await db.execute<{
        count: string;
      }>(sql`select (select count(*) from profiles where phone = '+919812345678' and name = 'Ravi Kumar' and user_id not in (select id from users))
        + (select count(*) from ledger_accounts where user_id is not null and user_id not in (select id from users)) as count`);
      expect(Number(leftovers.rows[0]?.count)).toBe(0);
      const retry = await call(harness.app, { method: 'POST', url: '/api/auth/signup', body });
      expect(retry.statusCode).toBe(500);
    } finally {
      await db.execute(sql`drop trigger fail_pin_insert on user_pins`);
      await db.execute(sql`drop function fail_pin_insert()`);
    }
  });

  it('stores the password and PIN only as argon2id hashes', async () => {
    const user = await signUpUser(harness.app, { password: 'plain-text-password', pin: '9638' });
    const result = await harness.database.handle.db.execute<{ password_hash: string; pin_hash: string }>(
      sql`select u.password_hash, p.pin_hash from users u join user_pins p on p.user_id = u.id where u.id = ${user.id}`,
    );
    const row = result.rows[0];
    expect(row?.password_hash).toMatch(/^\$argon2id\$/);
    expect(row?.pin_hash).toMatch(/^\$argon2id\$/);
    expect(row?.password_hash).not.toContain('plain-text-password');
    expect(row?.pin_hash).not.toContain('9876');
  });
});
