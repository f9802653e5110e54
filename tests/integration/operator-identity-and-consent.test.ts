import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { CONSENT_NOTICE_OUTDATED_MESSAGE, CONSENT_NOTICE_VERSION, GRIEVANCE_EMAIL_MESSAGE, GRIEVANCE_PHONE_MESSAGE } from '#shared/contracts/operator-identity';
import { countRows, currentSettingsForm, signUpVipCustomer } from '../fixtures/admin.ts';
import { useIntegrationFile } from '../fixtures/integration-file.ts';
import { call, signUpUser, signUpVerifiedUser } from '../fixtures/test-app.ts';

const { harness, admin } = useIntegrationFile({ depositAddresses: false });

const IDENTITY = {
  legalName: 'Rupeedesk Technologies Private Limited',
  address: '4th Floor, 12 MG Road, Bengaluru 560001, Karnataka',
  registration: 'CIN U62099KA2026PTC000001',
  grievanceOfficerName: 'Meera Iyer',
  grievanceOfficerEmail: 'grievance@rupeedesk.example.com',
  grievanceOfficerPhone: '+91 80 4000 1234',
};

async function saveIdentity(operatorIdentity: Record<string, unknown>, cookie = admin.cookie) {
  return call(harness.app, {
    method: 'PUT',
    url: '/api/admin/settings',
    cookie,
    body: await currentSettingsForm(harness.app, admin.cookie, { operatorIdentity }),
  });
}

const publicIdentity = async () => (await call(harness.app, { url: '/api/legal/operator' })).json<Record<string, string>>();

describe('the operator identity and grievance officer (settings)', () => {
  it('is empty by default, and public without signing in', async () => {
    const answer = await call(harness.app, { url: '/api/legal/operator' });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({
      legalName: '',
      address: '',
      registration: '',
      grievanceOfficerName: '',
      grievanceOfficerEmail: '',
      grievanceOfficerPhone: '',
      consentNoticeVersion: CONSENT_NOTICE_VERSION,
    });
  });

  it('is saved by an admin with an audit entry naming only what changed, and the public endpoint answers it', async () => {
    const auditBefore = await countRows(harness, 'audit_log');
    const saved = await saveIdentity(IDENTITY);
    expect(saved.statusCode).toBe(200);
    expect(saved.json().settings.operatorIdentity).toEqual({ ...IDENTITY, grievanceOfficerPhone: '+918040001234' });
    expect(await publicIdentity()).toMatchObject({ legalName: IDENTITY.legalName, grievanceOfficerPhone: '+918040001234', address: IDENTITY.address });
    expect(await countRows(harness, 'audit_log')).toBe(auditBefore + 1);
    const audit = await harness.database.handle.db.execute<{ action: string; after: Record<string, string> }>(
      sql`select action, after from audit_log order by created_at desc, id desc limit 1`,
    );
    expect(audit.rows[0]?.action).toBe('settings.update');
    expect(Object.keys(audit.rows[0]?.after ?? {}).sort()).toEqual(
      ['grievanceOfficerEmail', 'grievanceOfficerName', 'grievanceOfficerPhone', 'operatorAddress', 'operatorLegalName', 'operatorRegistration'].sort(),
    );
  });

  it('keeps the identity when a save leaves the section out', async () => {
    const form = await currentSettingsForm(harness.app, admin.cookie, { websiteUrl: 'https://rupeedesk.example.org' });
    expect((await call(harness.app, { method: 'PUT', url: '/api/admin/settings', cookie: admin.cookie, body: form })).statusCode).toBe(200);
    expect((await publicIdentity()).legalName).toBe(IDENTITY.legalName);
  });

  it('refuses a bad e-mail, a bad phone and an overlong name with a field message, and changes nothing', async () => {
    const before = await publicIdentity();
    const auditBefore = await countRows(harness, 'audit_log');
    const badEmail = await saveIdentity({ ...IDENTITY, grievanceOfficerEmail: 'not-an-email' });
    expect(badEmail.statusCode).toBe(400);
    expect(JSON.stringify(badEmail.json())).toContain(GRIEVANCE_EMAIL_MESSAGE);
    const badPhone = await saveIdentity({ ...IDENTITY, grievanceOfficerPhone: '12345' });
    expect(badPhone.statusCode).toBe(400);
    expect(JSON.stringify(badPhone.json())).toContain(GRIEVANCE_PHONE_MESSAGE);
    const longName = await saveIdentity({ ...IDENTITY, legalName: 'x'.repeat(201) });
    expect(longName.statusCode).toBe(400);
    expect(JSON.stringify(longName.json())).toContain('Legal name must be at most 200 characters');
    expect(await publicIdentity()).toEqual(before);
    expect(await countRows(harness, 'audit_log')).toBe(auditBefore);
  });

  it('cannot be changed by a customer or a VIP customer', async () => {
    const vip = await signUpVipCustomer(harness);
    const customer = await signUpVerifiedUser(harness.app);
    for (const cookie of [vip.cookie, customer.cookie]) {
      expect((await saveIdentity({ ...IDENTITY, legalName: 'Someone Else Ltd' }, cookie)).statusCode).toBe(403);
    }
    expect((await publicIdentity()).legalName).toBe(IDENTITY.legalName);
  });

  it('can be emptied again (the pages then leave it out)', async () => {
    const empty = Object.fromEntries(Object.keys(IDENTITY).map((key) => [key, '']));
    expect((await saveIdentity(empty)).statusCode).toBe(200);
    expect(await publicIdentity()).toMatchObject(empty);
  });
});

/** A PIN-verified customer who has not yet accepted the notice (signUpPinVerifiedUser accepts it). */
async function signUpWithoutConsent() {
  const customer = await signUpUser(harness.app);
  expect((await call(harness.app, { method: 'POST', url: '/api/pin/verify', body: { pin: customer.pin }, cookie: customer.cookie })).statusCode).toBe(200);
  return customer;
}

describe('the consent and privacy notice before KYC', () => {
  it('is not accepted at first, and is recorded with its time, IP address and version once accepted', async () => {
    const customer = await signUpWithoutConsent();
    const before = await call(harness.app, { url: '/api/kyc/consent', cookie: customer.cookie });
    expect(before.statusCode).toBe(200);
    expect(before.json()).toEqual({ noticeVersion: CONSENT_NOTICE_VERSION, acceptedAt: null });

    const accepted = await call(harness.app, {
      method: 'POST',
      url: '/api/kyc/consent',
      cookie: customer.cookie,
      body: { noticeVersion: CONSENT_NOTICE_VERSION },
    });
    expect(accepted.statusCode).toBe(200);
    const acceptedAt = accepted.json<{ acceptedAt: string }>().acceptedAt;
    expect(Date.parse(acceptedAt)).not.toBeNaN();

    const rows = await harness.database.handle.db.execute<{ notice_version: string; ip_address: string | null }>(
      sql`select notice_version, ip_address from consent_acceptances where user_id = ${customer.id}`,
    );
    expect(rows.rows).toHaveLength(1);
    expect(rows.rows[0]?.notice_version).toBe(CONSENT_NOTICE_VERSION);
    expect(rows.rows[0]?.ip_address).toBeTruthy();

    // Accepting again keeps the first record (its time and address).
    const again = await call(harness.app, {
      method: 'POST',
      url: '/api/kyc/consent',
      cookie: customer.cookie,
      body: { noticeVersion: CONSENT_NOTICE_VERSION },
    });
    expect(again.json<{ acceptedAt: string }>().acceptedAt).toBe(acceptedAt);
    expect((await call(harness.app, { url: '/api/kyc/consent', cookie: customer.cookie })).json<{ acceptedAt: string }>().acceptedAt).toBe(acceptedAt);
  });

  it('refuses an outdated version and records nothing', async () => {
    const customer = await signUpWithoutConsent();
    const refused = await call(harness.app, { method: 'POST', url: '/api/kyc/consent', cookie: customer.cookie, body: { noticeVersion: '2020-01-01' } });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(CONSENT_NOTICE_OUTDATED_MESSAGE);
    const rows = await harness.database.handle.db.execute(sql`select 1 from consent_acceptances where user_id = ${customer.id}`);
    expect(rows.rows).toHaveLength(0);
  });

  it('is one customer’s own: another customer’s acceptance does not count, and signed out it is refused', async () => {
    const first = await signUpWithoutConsent();
    const second = await signUpWithoutConsent();
    await call(harness.app, { method: 'POST', url: '/api/kyc/consent', cookie: first.cookie, body: { noticeVersion: CONSENT_NOTICE_VERSION } });
    expect((await call(harness.app, { url: '/api/kyc/consent', cookie: second.cookie })).json()).toMatchObject({ acceptedAt: null });
    expect((await call(harness.app, { url: '/api/kyc/consent' })).statusCode).toBe(401);
    expect((await call(harness.app, { method: 'POST', url: '/api/kyc/consent', body: { noticeVersion: CONSENT_NOTICE_VERSION } })).statusCode).toBe(401);
  });
});
