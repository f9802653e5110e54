import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { EVENTS_CHANNEL } from '../../src/server/platform/events/publish.ts';
import { toChecksumAddress } from '../../src/server/features/settings/addresses.ts';
import { KNOWN_ERC20_ADDRESS, KNOWN_TRON_ADDRESS, randomErc20Address, randomTronAddress } from '../fixtures/addresses.ts';
import {
  countRows,
  currentSettingsForm,
  fileBytes,
  listFiles,
  storedFileKeys,
  settingsVersion,
  setRoleAndVipLevel,
  signUpAdminWithVerifiedPin,
  signUpVipCustomer,
  uploadFile,
  validSettingsBody,
} from '../fixtures/admin.ts';
import { PNG } from 'pngjs';
import { animatedPng, plainPng, qrJpeg, qrPng, twoQrCodesPng } from '../fixtures/qr-images.ts';
import { call, createTestApp, signUpUser, type SignedUpUser } from '../fixtures/test-app.ts';
import { useIntegrationFile } from '../fixtures/integration-file.ts';

const { harness, admin } = useIntegrationFile({ depositAddresses: false });
let vip: SignedUpUser;
let customer: SignedUpUser;

beforeAll(async () => {
  vip = await signUpVipCustomer(harness);
  customer = await signUpUser(harness.app);
});

const db = () => harness.database.handle.db;

async function settingsRow() {
  const result = await db().execute<Record<string, unknown>>(sql`select * from admin_settings where id = 1`);
  return result.rows[0];
}

const currentVersion = () => settingsVersion(harness.app, admin.cookie);

/** Saves with the current version unless the body names one (expectedUpdatedAt). */
/** Rate changes of more than 5% need confirmation; these tests are about other rules (settings-guard-rails.test.ts tests that one), so they confirm. */
async function putSettings(body: Record<string, unknown>, cookie = admin.cookie) {
  return call(harness.app, {
    method: 'PUT',
    url: '/api/admin/settings',
    body: { expectedUpdatedAt: await currentVersion(), confirmedLargeRateChange: true, ...body },
    cookie,
  });
}

const ADDRESS_COLUMN = { TRC20: 'trc20_address', ERC20: 'erc20_address' } as const;
const QR_TYPE_MESSAGE = 'The QR image must be a PNG or JPEG image';

/** The network's deposit address as the tests above left it; a known one is set first when there is none. */
async function currentAddress(network: 'TRC20' | 'ERC20'): Promise<string> {
  const address = String((await settingsRow())?.[ADDRESS_COLUMN[network]] ?? '');
  if (address !== '') return address;
  const known = network === 'TRC20' ? KNOWN_TRON_ADDRESS : KNOWN_ERC20_ADDRESS;
  await db().execute(sql`update admin_settings set trc20_address = case when ${network} = 'TRC20' then ${known} else trc20_address end,
                                                   erc20_address = case when ${network} = 'ERC20' then ${known} else erc20_address end where id = 1`);
  return known;
}

/** A PNG of a QR code showing the network's current deposit address (what an upload must be). */
async function qrOfCurrentAddress(network: 'TRC20' | 'ERC20', options: { totalBytes?: number } = {}): Promise<Buffer> {
  return qrPng(await currentAddress(network), options);
}

const CONFLICT_MESSAGE = 'Settings were changed by another admin meanwhile. Reload to see the current values, then apply your change again.';

describe('public reads', () => {
  it('answers the default rates to anyone, never as fallback', async () => {
    const fresh = await createTestApp();
    try {
      const response = await fresh.app.inject({ method: 'GET', url: '/api/rates' });
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body).toMatchObject({ normalRate: '83.00', vipRate: '83.25', fallback: false });
      expect(new Date(body.updatedAt).toString()).not.toBe('Invalid Date');

      const publicSettings = await fresh.app.inject({ method: 'GET', url: '/api/settings/public' });
      expect(publicSettings.statusCode).toBe(200);
      expect(publicSettings.json()).toEqual({
        rates: body,
        addresses: { TRC20: '', ERC20: '' },
        qrImages: { TRC20: { exists: false, url: null }, ERC20: { exists: false, url: null } },
        whatsappSupportNumber: '',
        websiteUrl: '',
        minDeposit: '10.000000',
        apk: { exists: false, url: null, sizeBytes: null },
        // The test app turns the pause on a new bank account off (SECURITY_COOLING_OFF_HOURS=0).
        newAccountPauseHours: 0,
      });
      expect((await fresh.app.inject({ method: 'GET', url: '/api/files/apk' })).json().error.message).toBe('The app download is not available yet');
      expect((await fresh.app.inject({ method: 'GET', url: '/api/files/qr/TRC20' })).json().error.message).toBe('No QR code available');
    } finally {
      await fresh.close();
    }
  });
});

describe('API documentation', () => {
  it('documents the settings, file and admin routes in OpenAPI', async () => {
    const response = await harness.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    expect(Object.keys(response.json().paths)).toEqual(
      expect.arrayContaining([
        '/api/rates',
        '/api/settings/public',
        '/api/admin/settings',
        '/api/admin/files/qr/{network}',
        '/api/admin/files/apk',
        '/api/files/apk',
        '/api/admin/users/{id}',
        '/api/admin/audit-log',
      ]),
    );
  });
});

describe('reading the admin settings', () => {
  it('lets an admin read; a VIP-level customer is refused (limits are operator figures) and reads the public settings instead', async () => {
    const asAdmin = await call(harness.app, { url: '/api/admin/settings', cookie: admin.cookie });
    expect(asAdmin.statusCode).toBe(200);
    expect(asAdmin.json().canEdit).toBe(true);
    const asVip = await call(harness.app, { url: '/api/admin/settings', cookie: vip.cookie });
    expect(asVip.statusCode).toBe(403);
    expect(asVip.json().error.code).toBe('FORBIDDEN');
    const publicSettings = await call(harness.app, { url: '/api/settings/public', cookie: vip.cookie });
    expect(publicSettings.statusCode).toBe(200);
    expect(Object.keys(publicSettings.json()).sort()).toEqual([
      'addresses',
      'apk',
      'minDeposit',
      'newAccountPauseHours',
      'qrImages',
      'rates',
      'websiteUrl',
      'whatsappSupportNumber',
    ]);
    expect((await call(harness.app, { url: '/api/admin/settings', cookie: customer.cookie })).statusCode).toBe(403);
    expect((await call(harness.app, { url: '/api/admin/settings' })).statusCode).toBe(401);
  });
});

describe('saving settings', () => {
  it('saves every field, writes history and audit with before and after, and publishes settings.updated', async () => {
    const listener = new pg.Client({ connectionString: harness.database.connectionString });
    await listener.connect();
    const events: string[] = [];
    listener.on('notification', (message) => events.push(message.payload ?? ''));
    await listener.query(`listen ${EVENTS_CHANNEL}`);
    try {
      const before = await settingsRow();
      const historyBefore = await countRows(harness, 'admin_settings_history');
      const lowerCaseErc20 = randomErc20Address().toLowerCase();
      const trc20 = randomTronAddress();
      const response = await putSettings(
        validSettingsBody({ normalRate: '84.5', vipRate: '86', trc20Address: ` ${trc20} `, erc20Address: lowerCaseErc20, minDeposit: '12.5' }),
      );
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.message).toBe('Settings updated successfully');
      expect(body.settings).toMatchObject({
        normalRate: '84.50',
        vipRate: '86.00',
        trc20Address: trc20,
        // Stored in its EIP-55 form, which is the same address.
        erc20Address: toChecksumAddress(lowerCaseErc20),
        whatsappSupportNumber: '+919876543210',
        websiteUrl: 'https://rupeedesk.example.com',
        minDeposit: '12.500000',
        canEdit: true,
        updatedBy: { id: admin.id, email: admin.email },
      });

      const row = await settingsRow();
      expect(row?.rate_normal_inr_paise).toBe(8450n);
      expect(row?.rate_vip_inr_paise).toBe(8600n);
      expect(row?.min_deposit_usdt_micros).toBe(12_500_000n);
      expect(row?.updated_by_user_id).toBe(admin.id);

      const rates = await harness.app.inject({ method: 'GET', url: '/api/rates' });
      expect(rates.json()).toMatchObject({ normalRate: '84.50', vipRate: '86.00', fallback: false });
      const publicSettings = (await harness.app.inject({ method: 'GET', url: '/api/settings/public' })).json();
      expect(publicSettings.addresses).toEqual({ TRC20: trc20, ERC20: body.settings.erc20Address });
      expect(publicSettings.whatsappSupportNumber).toBe('+919876543210');
      expect(publicSettings.minDeposit).toBe('12.500000');

      expect(await countRows(harness, 'admin_settings_history')).toBe(historyBefore + 1);
      const history = await db().execute<{ changed_by_user_id: string; before: Record<string, unknown>; after: Record<string, unknown> }>(
        sql`select changed_by_user_id, before, after from admin_settings_history order by id desc limit 1`,
      );
      expect(history.rows[0]?.changed_by_user_id).toBe(admin.id);
      expect(history.rows[0]?.before.normalRate).toBe(`${(Number(before?.rate_normal_inr_paise) / 100).toFixed(2)}`);
      expect(history.rows[0]?.after.normalRate).toBe('84.50');

      const audit = await call(harness.app, { url: '/api/admin/audit-log?action=settings.update&limit=1', cookie: admin.cookie });
      expect(audit.statusCode).toBe(200);
      const entry = audit.json().items[0];
      expect(entry).toMatchObject({
        action: 'settings.update',
        actor: { id: admin.id, email: admin.email },
        targetType: 'settings',
        targetId: '1',
        after: { normalRate: '84.50', vipRate: '86.00', trc20Address: trc20, minDeposit: '12.500000' },
      });
      expect(entry.before.normalRate).toBe(history.rows[0]?.before.normalRate);
      // Only what changed is in the audit entry.
      expect(Object.keys(entry.after)).not.toContain('trc20QrFileId');

      await expect.poll(() => events.length).toBeGreaterThan(0);
      expect(events.map((payload) => JSON.parse(payload))).toContainEqual({ type: 'settings.updated' });
    } finally {
      await listener.end();
    }
  });

  it('accepts the known-good addresses and empty (not yet set up) ones', async () => {
    const response = await putSettings(validSettingsBody({ trc20Address: KNOWN_TRON_ADDRESS, erc20Address: KNOWN_ERC20_ADDRESS }));
    expect(response.statusCode).toBe(200);
    expect(response.json().settings.erc20Address).toBe(KNOWN_ERC20_ADDRESS);
    const empty = await putSettings(validSettingsBody({ trc20Address: '', erc20Address: '', whatsappSupportNumber: '', websiteUrl: '' }));
    expect(empty.statusCode).toBe(200);
    expect(empty.json().settings).toMatchObject({ trc20Address: '', erc20Address: '', whatsappSupportNumber: '', websiteUrl: '' });
  });

  it('lets exactly one of five admins saving the same version at the same moment win, and keeps the history chain unbroken', async () => {
    const before = (await call(harness.app, { url: '/api/admin/settings', cookie: admin.cookie })).json();
    const historyBefore = await countRows(harness, 'admin_settings_history');
    const auditBefore = await countRows(harness, 'audit_log');
    const rates = ['70.01', '70.02', '70.03', '70.04', '70.05'];
    const responses = await Promise.all(rates.map((normalRate) => putSettings(validSettingsBody({ normalRate, expectedUpdatedAt: before.updatedAt }))));
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(rates.length - 1);
    for (const refused of responses.filter((response) => response.statusCode === 409)) {
      expect(refused.json().error).toMatchObject({ code: 'CONFLICT', message: CONFLICT_MESSAGE });
    }
    const winner = rates[statuses.indexOf(200)];
    expect(await countRows(harness, 'admin_settings_history')).toBe(historyBefore + 1);
    expect(await countRows(harness, 'audit_log')).toBe(auditBefore + 1);
    const history = await db().execute<{ before: { normalRate: string }; after: { normalRate: string } }>(
      sql`select before, after from admin_settings_history order by id desc limit 1`,
    );
    expect(history.rows[0]?.before.normalRate).toBe(before.normalRate);
    expect(history.rows[0]?.after.normalRate).toBe(winner);
    const final = (await harness.app.inject({ method: 'GET', url: '/api/rates' })).json().normalRate;
    expect(final).toBe(winner);
  });

  it('refuses a save based on settings another admin changed since, and saves nothing', async () => {
    const otherAdmin = await signUpAdminWithVerifiedPin(harness, { fullName: 'Other Admin' });
    const loaded = (await call(harness.app, { url: '/api/admin/settings', cookie: admin.cookie })).json();
    // Not an address or a rate: with two admins those wait for the second one (maker-checker.test.ts).
    const otherWebsite = 'https://other.example.com';
    const first = await putSettings(
      await currentSettingsForm(harness.app, otherAdmin.cookie, { websiteUrl: otherWebsite, expectedUpdatedAt: loaded.updatedAt }),
      otherAdmin.cookie,
    );
    expect(first.statusCode).toBe(200);
    expect(first.json().settings.updatedAt).not.toBe(loaded.updatedAt);

    const rowBefore = await settingsRow();
    const history = await countRows(harness, 'admin_settings_history');
    const audit = await countRows(harness, 'audit_log');
    const stale = await putSettings(validSettingsBody({ trc20Address: randomTronAddress(), normalRate: '85.00', expectedUpdatedAt: loaded.updatedAt }));
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error).toMatchObject({ code: 'CONFLICT', message: CONFLICT_MESSAGE });
    expect(await settingsRow()).toEqual(rowBefore);
    expect(rowBefore?.website_url).toBe(otherWebsite);
    expect(await countRows(harness, 'admin_settings_history')).toBe(history);
    expect(await countRows(harness, 'audit_log')).toBe(audit);
    // Even a stale save that changes nothing is refused: the admin has not seen the current values.
    const unchanged = await putSettings(validSettingsBody({ websiteUrl: otherWebsite, expectedUpdatedAt: loaded.updatedAt }));
    expect(unchanged.statusCode).toBe(409);
    // The rest of this file saves rates on one admin's word, as a single admin does.
    await setRoleAndVipLevel(harness, otherAdmin.id, { role: 'user' });
  });

  it('refuses a save from before a file upload', async () => {
    const image = await qrOfCurrentAddress('TRC20');
    const loaded = await currentVersion();
    expect((await uploadFile(harness.app, '/api/admin/files/qr/TRC20', { cookie: admin.cookie, bytes: image })).statusCode).toBe(201);
    const stale = await putSettings(validSettingsBody({ normalRate: '71.11', expectedUpdatedAt: loaded }));
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.code).toBe('CONFLICT');
  });

  it('accepts back-to-back saves that each send the version the previous one answered', async () => {
    const history = await countRows(harness, 'admin_settings_history');
    let version = await currentVersion();
    const rates = ['72.01', '72.02', '72.03', '72.04', '72.05'];
    for (const normalRate of rates) {
      const response = await putSettings(validSettingsBody({ normalRate, expectedUpdatedAt: version }));
      expect(response.statusCode, response.body).toBe(200);
      const next: string = response.json().settings.updatedAt;
      expect(Date.parse(next)).toBeGreaterThan(Date.parse(version));
      version = next;
      expect(await currentVersion()).toBe(version);
    }
    expect(await countRows(harness, 'admin_settings_history')).toBe(history + rates.length);
    expect((await harness.app.inject({ method: 'GET', url: '/api/rates' })).json().normalRate).toBe('72.05');
  });

  it('requires the version being edited', async () => {
    const { expectedUpdatedAt: _omitted, ...body } = validSettingsBody({ expectedUpdatedAt: undefined });
    const missing = await call(harness.app, { method: 'PUT', url: '/api/admin/settings', body, cookie: admin.cookie });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.code).toBe('VALIDATION_FAILED');
    const garbage = await putSettings(validSettingsBody({ expectedUpdatedAt: 'yesterday' }));
    expect(garbage.statusCode).toBe(400);
  });

  it('shows admins which admin saved last, and VIP-level customers nothing of it', async () => {
    await putSettings(validSettingsBody({ normalRate: '77.77' }));
    expect((await call(harness.app, { url: '/api/admin/settings', cookie: admin.cookie })).json().updatedBy.id).toBe(admin.id);
    expect((await call(harness.app, { url: '/api/admin/settings', cookie: vip.cookie })).statusCode).toBe(403);
  });

  it('writes no history and no audit entry when nothing changed', async () => {
    await putSettings(validSettingsBody());
    const history = await countRows(harness, 'admin_settings_history');
    const audit = await countRows(harness, 'audit_log');
    const response = await putSettings(validSettingsBody());
    expect(response.statusCode).toBe(200);
    expect(response.json().message).toBe('Settings updated successfully');
    expect(await countRows(harness, 'admin_settings_history')).toBe(history);
    expect(await countRows(harness, 'audit_log')).toBe(audit);
  });

  const flippedCase = (address: string) => {
    const index = [...address].findIndex((character, position) => position > 1 && /[a-fA-F]/.test(character));
    const character = address[index] as string;
    const flipped = character === character.toUpperCase() ? character.toLowerCase() : character.toUpperCase();
    return address.slice(0, index) + flipped + address.slice(index + 1);
  };
  const brokenTronChecksum = KNOWN_TRON_ADDRESS.slice(0, -1) + (KNOWN_TRON_ADDRESS.endsWith('t') ? 'u' : 't');

  const invalidCases: [string, Record<string, unknown>, string, string][] = [
    ['a zero normal rate', { normalRate: '0' }, 'normalRate', 'Normal rate must be greater than 0'],
    ['a negative normal rate', { normalRate: '-83' }, 'normalRate', 'Normal rate must be greater than 0'],
    ['a normal rate with 3 decimals', { normalRate: '83.255' }, 'normalRate', 'Normal rate can have at most 2 decimal places'],
    ['a normal rate that is text', { normalRate: 'eighty' }, 'normalRate', 'Normal rate must be a number'],
    ['a zero VIP rate', { vipRate: '0.00' }, 'vipRate', 'VIP rate must be greater than 0'],
    ['a VIP rate with 3 decimals', { vipRate: '83.251' }, 'vipRate', 'VIP rate can have at most 2 decimal places'],
    ['a missing VIP rate', { vipRate: '' }, 'vipRate', 'VIP rate is required'],
    ['a rate given as a JSON number', { normalRate: 83 }, 'normalRate', 'Normal rate is required'],
    ['a huge rate', { normalRate: '100000000' }, 'normalRate', 'Normal rate is too large'],
    [
      'a TRON address with a broken checksum',
      { trc20Address: brokenTronChecksum },
      'trc20Address',
      'TRC20 address is not a valid TRON address (its checksum does not match); check it for typos',
    ],
    ['a TRON address of the wrong shape', { trc20Address: 'T123' }, 'trc20Address', 'TRC20 address must start with T and be 34 characters of base58'],
    ['an Ethereum address as TRC20', { trc20Address: KNOWN_ERC20_ADDRESS }, 'trc20Address', 'TRC20 address must start with T and be 34 characters of base58'],
    [
      'an ERC20 address with a broken EIP-55 checksum',
      { erc20Address: flippedCase(KNOWN_ERC20_ADDRESS) },
      'erc20Address',
      'ERC20 address has mixed case but its EIP-55 checksum does not match; check it for typos',
    ],
    [
      'an ERC20 address that is not hex',
      { erc20Address: `0x${'g'.repeat(40)}` },
      'erc20Address',
      'ERC20 address must be 0x followed by 40 hexadecimal characters',
    ],
    ['an ERC20 address that is too short', { erc20Address: '0x1234' }, 'erc20Address', 'ERC20 address must be 0x followed by 40 hexadecimal characters'],
    ['a website that is not http(s)', { websiteUrl: 'javascript:alert(1)' }, 'websiteUrl', 'Website URL must be a full http:// or https:// address'],
    ['a website without a scheme', { websiteUrl: 'rupeedesk.example.com' }, 'websiteUrl', 'Website URL must be a full http:// or https:// address'],
    [
      'a WhatsApp number without country code',
      { whatsappSupportNumber: '98765 43210' },
      'whatsappSupportNumber',
      'WhatsApp support number must start with + and the country code, then 7 to 14 digits (e.g. +919876543210)',
    ],
    ['a zero minimum deposit', { minDeposit: '0' }, 'minDeposit', 'Minimum deposit must be greater than 0'],
    ['a minimum deposit with 7 decimals', { minDeposit: '1.0000001' }, 'minDeposit', 'Minimum deposit can have at most 6 decimal places'],
  ];

  it.each(invalidCases)('refuses %s with a clear field message and saves nothing', async (_name, override, field, message) => {
    // A valid change to another field rides along: it must not be saved either.
    const body = validSettingsBody({ normalRate: '91.11', vipRate: '92.22', ...override });
    const before = await settingsRow();
    const history = await countRows(harness, 'admin_settings_history');
    const audit = await countRows(harness, 'audit_log');
    const response = await putSettings(body);
    expect(response.statusCode).toBe(400);
    const error = response.json().error;
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.fields?.[field]).toBe(message);
    expect(error.message).toBe(message);
    expect(await settingsRow()).toEqual(before);
    expect(await countRows(harness, 'admin_settings_history')).toBe(history);
    expect(await countRows(harness, 'audit_log')).toBe(audit);
  });

  it('reports every invalid field at once', async () => {
    const response = await putSettings(validSettingsBody({ normalRate: '0', vipRate: 'abc', websiteUrl: 'ftp://x' }));
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json().error.fields).sort()).toEqual(['normalRate', 'vipRate', 'websiteUrl']);
  });

  it('refuses a VIP-level customer and a customer, and saves nothing', async () => {
    const before = await settingsRow();
    for (const user of [vip, customer]) {
      const response = await putSettings(validSettingsBody({ normalRate: '1.00' }), user.cookie);
      expect(response.statusCode).toBe(403);
    }
    expect((await putSettings(validSettingsBody({ normalRate: '1.00' }), '')).statusCode).toBe(401);
    expect(await settingsRow()).toEqual(before);
  });
});

describe('QR image and APK uploads', () => {
  it('stores a QR image by its proven type, serves it publicly and audits the upload', async () => {
    const bytes = await qrOfCurrentAddress('TRC20', { totalBytes: 5000 });
    const response = await uploadFile(harness.app, '/api/admin/files/qr/TRC20', { cookie: admin.cookie, bytes, fileName: '../../etc/My QR.png' });
    expect(response.statusCode).toBe(201);
    const { file, message } = response.json();
    expect(message).toBe('File uploaded successfully');
    // What is kept is a new PNG of the pixels read (decision 037), not the sender's 5000 bytes with their padding chunk.
    expect(file).toMatchObject({ purpose: 'qr_trc20', originalName: 'My QR.png', contentType: 'image/png' });
    expect(file.sizeBytes).toBeLessThan(5000);

    const publicSettings = (await harness.app.inject({ method: 'GET', url: '/api/settings/public' })).json();
    expect(publicSettings.qrImages.TRC20).toEqual({ exists: true, url: file.url });
    const image = await harness.app.inject({ method: 'GET', url: file.url });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.rawPayload.includes(Buffer.from('ruPd', 'latin1'))).toBe(false);
    expect(PNG.sync.read(image.rawPayload).data.equals(PNG.sync.read(bytes).data)).toBe(true);
    expect(file.sha256).toBe(createHash('sha256').update(image.rawPayload).digest('hex'));

    const audit = (await call(harness.app, { url: '/api/admin/audit-log?action=settings.file_upload&limit=1', cookie: admin.cookie })).json().items[0];
    expect(audit).toMatchObject({ actor: { id: admin.id }, targetType: 'stored_file', targetId: file.id, after: { sha256: file.sha256, purpose: 'qr_trc20' } });
  });

  it('tells the uploader the settings version before and after, so a form open on the old version can still save', async () => {
    const image = await qrOfCurrentAddress('TRC20');
    const versionBefore = await currentVersion();
    const upload = await uploadFile(harness.app, '/api/admin/files/qr/TRC20', { cookie: admin.cookie, bytes: image });
    expect(upload.statusCode).toBe(201);
    const { before, after } = upload.json().settingsVersion;
    expect(before).toBe(versionBefore);
    expect(after).toBe(await currentVersion());
    expect(new Date(after).getTime()).toBeGreaterThan(new Date(before).getTime());

    const stale = await call(harness.app, {
      method: 'PUT',
      url: '/api/admin/settings',
      cookie: admin.cookie,
      body: validSettingsBody({ expectedUpdatedAt: before }),
    });
    expect(stale.statusCode).toBe(409);
    const adopted = await call(harness.app, {
      method: 'PUT',
      url: '/api/admin/settings',
      cookie: admin.cookie,
      body: validSettingsBody({ expectedUpdatedAt: after, normalRate: '84.10' }),
    });
    expect(adopted.statusCode).toBe(200);
    expect(adopted.json().settings.normalRate).toBe('84.10');
  });

  it('replaces the previous image and removes its file', async () => {
    const first = (await uploadFile(harness.app, '/api/admin/files/qr/ERC20', { cookie: admin.cookie, bytes: await qrOfCurrentAddress('ERC20') })).json().file;
    const filesAfterFirst = await storedFileKeys(harness);
    const jpegImage = await qrJpeg(await currentAddress('ERC20'));
    const second = await uploadFile(harness.app, '/api/admin/files/qr/ERC20', {
      cookie: admin.cookie,
      bytes: jpegImage,
      contentType: 'image/jpeg',
      fileName: 'qr.jpg',
    });
    expect(second.statusCode).toBe(201);
    // A JPEG is kept as a PNG of its pixels.
    expect(second.json().file.contentType).toBe('image/png');
    expect((await storedFileKeys(harness)).length).toBe(filesAfterFirst.length);
    const stillThere = await db().execute(sql`select id from stored_files where id = ${first.id}`);
    expect(stillThere.rows).toHaveLength(0);
    const audit = (await call(harness.app, { url: '/api/admin/audit-log?action=settings.file_upload&limit=1', cookie: admin.cookie })).json().items[0];
    expect(audit.before).toMatchObject({ fileId: first.id, contentType: 'image/png' });
    expect(audit.after).toMatchObject({ fileId: second.json().file.id, contentType: 'image/png' });
    const settings = (await call(harness.app, { url: '/api/admin/settings', cookie: admin.cookie })).json();
    expect(settings.files.erc20Qr.id).toBe(second.json().file.id);
  });

  it('refuses an animated PNG whose default image shows the address, and a picture with a second QR code (decision 037)', async () => {
    const address = await currentAddress('TRC20');
    const before = await storedFileKeys(harness);
    const animated = await uploadFile(harness.app, '/api/admin/files/qr/TRC20', { cookie: admin.cookie, bytes: animatedPng(await qrPng(address)) });
    expect(animated.statusCode).toBe(400);
    expect(animated.json().error.fields.file).toBe(
      'Animated images cannot be QR images: a browser could show another picture than the one checked. Upload a still PNG or JPEG.',
    );
    const two = await uploadFile(harness.app, '/api/admin/files/qr/TRC20', {
      cookie: admin.cookie,
      bytes: twoQrCodesPng(await qrPng(address), await qrPng(KNOWN_ERC20_ADDRESS, { width: 150 })),
    });
    expect(two.statusCode).toBe(400);
    expect(two.json().error.fields.file).toBe('This image holds more than one QR code. Upload a picture of the deposit address QR code alone.');
    expect(await storedFileKeys(harness)).toEqual(before);
  });

  const refusedUploads: [string, string, Parameters<typeof uploadFile>[2], number, string][] = [
    ['text declared as PNG', '/api/admin/files/qr/TRC20', { bytes: fileBytes('text'), contentType: 'image/png' }, 400, QR_TYPE_MESSAGE],
    ['a ZIP declared as PNG', '/api/admin/files/qr/TRC20', { bytes: fileBytes('zip'), contentType: 'image/png' }, 400, QR_TYPE_MESSAGE],
    ['a PNG declared as a PDF', '/api/admin/files/qr/TRC20', { bytes: fileBytes('png'), contentType: 'application/pdf' }, 400, QR_TYPE_MESSAGE],
    [
      'a WebP image (its QR code cannot be read here)',
      '/api/admin/files/qr/TRC20',
      { bytes: fileBytes('webp'), contentType: 'image/webp' },
      400,
      QR_TYPE_MESSAGE,
    ],
    ['a WebP image declared as PNG', '/api/admin/files/qr/TRC20', { bytes: fileBytes('webp'), contentType: 'image/png' }, 400, QR_TYPE_MESSAGE],
    [
      'a PNG without a QR code',
      '/api/admin/files/qr/TRC20',
      { bytes: plainPng() },
      400,
      'No QR code could be read in this image. Upload a sharp picture of the QR code alone.',
    ],
    [
      'bytes that only start like a PNG',
      '/api/admin/files/qr/TRC20',
      { bytes: fileBytes('png', 5000) },
      400,
      'No QR code could be read in this image. Upload a sharp picture of the QR code alone.',
    ],
    [
      'a picture of more than 4 megapixels',
      '/api/admin/files/qr/TRC20',
      { bytes: plainPng(2001, 2000) },
      400,
      'The QR image must be at most 4 megapixels (for example 2000 × 2000)',
    ],
    ['an image of 2 MB and one byte', '/api/admin/files/qr/TRC20', { bytes: fileBytes('png', 2 * 1024 * 1024 + 1) }, 413, 'The QR image must be at most 2 MB'],
    ['an empty image', '/api/admin/files/qr/TRC20', { bytes: Buffer.alloc(0) }, 400, 'The QR image is empty'],
    [
      'a PNG as the APK',
      '/api/admin/files/apk',
      { bytes: fileBytes('png'), contentType: 'application/vnd.android.package-archive', fileName: 'app.apk' },
      400,
      'The app file must be an Android APK (a ZIP archive)',
    ],
  ];

  it.each(refusedUploads)('refuses %s with a clear message and keeps nothing', async (_name, url, options, status, message) => {
    const storedBefore = await countRows(harness, 'stored_files');
    const auditBefore = await countRows(harness, 'audit_log');
    const filesBefore = await storedFileKeys(harness);
    const settingsBefore = await settingsRow();
    const response = await uploadFile(harness.app, url, { cookie: admin.cookie, ...options });
    expect(response.statusCode).toBe(status);
    expect(response.json().error.message).toBe(message);
    expect(response.json().error.fields).toEqual({ file: message });
    expect(await countRows(harness, 'stored_files')).toBe(storedBefore);
    expect(await countRows(harness, 'audit_log')).toBe(auditBefore);
    expect(await storedFileKeys(harness)).toEqual(filesBefore);
    expect(await settingsRow()).toEqual(settingsBefore);
  });

  it('accepts an image of exactly 2 MB', async () => {
    const response = await uploadFile(harness.app, '/api/admin/files/qr/TRC20', {
      cookie: admin.cookie,
      bytes: await qrOfCurrentAddress('TRC20', { totalBytes: 2 * 1024 * 1024 }),
    });
    expect(response.statusCode).toBe(201);
  });

  it('refuses a QR image of another address, saying what it shows, and keeps nothing', async () => {
    const address = await currentAddress('TRC20');
    const erc20 = await currentAddress('ERC20');
    const before = {
      stored: await countRows(harness, 'stored_files'),
      audit: await countRows(harness, 'audit_log'),
      files: await storedFileKeys(harness),
      settings: await settingsRow(),
    };
    const other = randomTronAddress();
    for (const shown of [other, `tron:${other}`, `ethereum:${address}`, `${address}?amount=10`]) {
      const response = await uploadFile(harness.app, '/api/admin/files/qr/TRC20', { cookie: admin.cookie, bytes: await qrPng(shown) });
      expect(response.statusCode).toBe(400);
      const message = `This QR code shows "${shown}", not the TRC20 deposit address ${address}. Customers would send USDT there, so it was not saved.`;
      expect(response.json().error).toMatchObject({ code: 'VALIDATION_FAILED', message, fields: { file: message } });
    }
    // The other network's address is another address too.
    const crossed = await uploadFile(harness.app, '/api/admin/files/qr/TRC20', { cookie: admin.cookie, bytes: await qrPng(erc20) });
    expect(crossed.statusCode).toBe(400);
    expect({
      stored: await countRows(harness, 'stored_files'),
      audit: await countRows(harness, 'audit_log'),
      files: await storedFileKeys(harness),
      settings: await settingsRow(),
    }).toEqual(before);
  });

  it('accepts an ERC20 QR code whose address is written in lower case, behind ethereum:', async () => {
    const address = await currentAddress('ERC20');
    const response = await uploadFile(harness.app, '/api/admin/files/qr/ERC20', {
      cookie: admin.cookie,
      bytes: await qrPng(`ethereum:${address.toLowerCase()}`),
    });
    expect(response.statusCode).toBe(201);
    const publicSettings = (await harness.app.inject({ method: 'GET', url: '/api/settings/public' })).json();
    expect(publicSettings.qrImages.ERC20).toEqual({ exists: true, url: response.json().file.url });
  });

  it('asks for the address before its QR image', async () => {
    // Two admins exist by now, so a save would only ask for the change (maker-checker.test.ts): the address is emptied directly.
    await db().execute(sql`update admin_settings set trc20_address = '' where id = 1`);
    const response = await uploadFile(harness.app, '/api/admin/files/qr/TRC20', { cookie: admin.cookie, bytes: await qrPng(KNOWN_TRON_ADDRESS) });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toBe('Save the TRC20 deposit address before uploading its QR image');
  });

  it('shows no QR image that was not read to show the current address (one uploaded before the check, or left behind)', async () => {
    const address = await currentAddress('ERC20');
    const upload = await uploadFile(harness.app, '/api/admin/files/qr/ERC20', { cookie: admin.cookie, bytes: await qrOfCurrentAddress('ERC20') });
    expect(upload.statusCode).toBe(201);
    const fileId = upload.json().file.id as string;
    expect((await harness.app.inject({ method: 'GET', url: '/api/files/qr/ERC20' })).statusCode).toBe(200);
    for (const recorded of [null, randomErc20Address()]) {
      await db().execute(sql`update stored_files set qr_content = ${recorded} where id = ${fileId}`);
      const publicSettings = (await harness.app.inject({ method: 'GET', url: '/api/settings/public' })).json();
      expect(publicSettings.qrImages.ERC20).toEqual({ exists: false, url: null });
      expect((await harness.app.inject({ method: 'GET', url: '/api/files/qr/ERC20' })).statusCode).toBe(404);
    }
    await db().execute(sql`update stored_files set qr_content = ${address} where id = ${fileId}`);
    expect((await harness.app.inject({ method: 'GET', url: '/api/files/qr/ERC20' })).statusCode).toBe(200);
  });

  it('asks for a file when none is sent, and refuses an unknown network', async () => {
    const form = new FormData();
    form.append('note', 'no file here');
    const noFile = await harness.app.inject({
      method: 'POST',
      url: '/api/admin/files/qr/TRC20',
      headers: { origin: 'http://localhost:3000', cookie: admin.cookie },
      payload: form,
    });
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json().error.message).toBe('Choose a QR image to upload');
    const json = await call(harness.app, { method: 'POST', url: '/api/admin/files/apk', body: {}, cookie: admin.cookie });
    expect(json.statusCode).toBe(400);
    expect(json.json().error.message).toBe('Choose an APK file to upload');
    const network = await uploadFile(harness.app, '/api/admin/files/qr/BTC', { cookie: admin.cookie, bytes: fileBytes('png') });
    expect(network.statusCode).toBe(400);
    expect(network.json().error.message).toBe('Network must be TRC20 or ERC20');
  });

  it('stores the APK and offers it as a download with a fixed file name', async () => {
    const bytes = fileBytes('zip', 10_000);
    const response = await uploadFile(harness.app, '/api/admin/files/apk', {
      cookie: admin.cookie,
      bytes,
      contentType: 'application/octet-stream',
      fileName: 'rupeedesk-v2.apk',
    });
    expect(response.statusCode).toBe(201);
    const file = response.json().file;
    expect(file).toMatchObject({ purpose: 'apk', contentType: 'application/vnd.android.package-archive', sizeBytes: 10_000, originalName: 'rupeedesk-v2.apk' });
    const publicSettings = (await harness.app.inject({ method: 'GET', url: '/api/settings/public' })).json();
    expect(publicSettings.apk).toEqual({ exists: true, url: file.url, sizeBytes: 10_000 });
    const download = await harness.app.inject({ method: 'GET', url: file.url });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toBe('attachment; filename="rupeedesk.apk"');
    expect(download.headers['content-type']).toBe('application/vnd.android.package-archive');
    expect(download.rawPayload.equals(bytes)).toBe(true);
    const head = await harness.app.inject({ method: 'HEAD', url: '/api/files/apk' });
    expect(head.statusCode).toBe(200);
  });

  it('refuses an APK over 200 MB and keeps nothing', async () => {
    const storedBefore = await countRows(harness, 'stored_files');
    const filesBefore = await storedFileKeys(harness);
    const response = await uploadFile(harness.app, '/api/admin/files/apk', {
      cookie: admin.cookie,
      bytes: fileBytes('zip', 200 * 1024 * 1024 + 1),
      contentType: 'application/vnd.android.package-archive',
      fileName: 'big.apk',
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().error.message).toBe('The app file must be at most 200 MB');
    expect(await countRows(harness, 'stored_files')).toBe(storedBefore);
    expect(await storedFileKeys(harness)).toEqual(filesBefore);
  }, 120_000);

  it('refuses uploads from a VIP-level customer, a customer and anonymous callers without reading them', async () => {
    const storedBefore = await countRows(harness, 'stored_files');
    for (const [cookie, status] of [
      [vip.cookie, 403],
      [customer.cookie, 403],
      [undefined, 401],
    ] as const) {
      for (const url of ['/api/admin/files/qr/TRC20', '/api/admin/files/apk']) {
        const response = await uploadFile(harness.app, url, { cookie, bytes: url.endsWith('apk') ? fileBytes('zip') : fileBytes('png') });
        expect(response.statusCode).toBe(status);
      }
    }
    expect(await countRows(harness, 'stored_files')).toBe(storedBefore);
  });

  it('keeps uploaded files in the database, where every app server finds them, and none on disk', async () => {
    expect((await storedFileKeys(harness)).length).toBeGreaterThan(0);
    expect(listFiles(harness.filesDirectory)).toEqual([]);
  });
});
