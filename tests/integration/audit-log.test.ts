import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_LOG_CSV_MAX_ROWS, auditLogResponseSchema, type AuditLogEntry } from '#shared/contracts/admin';
import { signUpAdminWithVerifiedPin, signUpVipCustomer } from '../fixtures/admin.ts';
import { useIntegrationFile } from '../fixtures/integration-file.ts';
import { call, signUpUser, type SignedUpUser } from '../fixtures/test-app.ts';

// The audit log a person can read (issue 13, item 6): search by a name or e-mail of the admin who acted
// or of the user concerned, filters by action and by days in India time, pages, and the CSV of a filter.

const { harness, admin } = useIntegrationFile({ depositAddresses: false });
const db = () => harness.database.handle.db;

let secondAdmin: SignedUpUser;
let ishaan: SignedUpUser;
let zubin: SignedUpUser;

function setVipLevel(actor: SignedUpUser, target: SignedUpUser, vipLevel: string) {
  return call(harness.app, { method: 'PATCH', url: `/api/admin/users/${target.id}`, body: { vipLevel }, cookie: actor.cookie });
}

async function search(query: string, cookie = admin.cookie): Promise<AuditLogEntry[]> {
  const response = await call(harness.app, { url: `/api/admin/audit-log?limit=100&${query}`, cookie });
  expect(response.statusCode, response.body).toBe(200);
  return auditLogResponseSchema.parse(response.json()).items;
}

beforeAll(async () => {
  secondAdmin = await signUpAdminWithVerifiedPin(harness, { fullName: 'Priyamvada Second-Admin' });
  ishaan = await signUpUser(harness.app, { fullName: 'Ishaan Vermaland' });
  zubin = await signUpUser(harness.app, { fullName: 'Zubin Quartermaine' });
  // The file's admin changes Ishaan twice; the second admin changes Zubin once.
  for (const [actor, target, level] of [
    [admin, ishaan, 'vip'],
    [admin, ishaan, 'vip1'],
    [secondAdmin, zubin, 'vip2'],
  ] as const) {
    expect((await setVipLevel(actor, target, level)).statusCode).toBe(200);
  }
});

describe('audit log search', () => {
  it('finds entries by any part of the acting admin’s name or e-mail, in any case', async () => {
    // Only the admin actions: the admin's own KYC steps (PAN, tax residence; decision 042) are audited with them as the actor too.
    const byName = await search('q=priyamVADA&action=user.update');
    expect(byName.map((entry) => [entry.actor?.id, entry.targetUser?.id])).toEqual([[secondAdmin.id, zubin.id]]);
    expect(byName[0]?.actor).toEqual({ id: secondAdmin.id, name: 'Priyamvada Second-Admin', email: secondAdmin.email });
    const byEmail = await search(`q=${encodeURIComponent(secondAdmin.email.toUpperCase())}&action=user.update`);
    expect(byEmail.map((entry) => entry.id)).toEqual(byName.map((entry) => entry.id));
  });

  it('finds entries by the name or e-mail of the user concerned, newest first', async () => {
    const byName = await search('q=vermaland');
    expect(byName.map((entry) => (entry.after as { vipLevel: string }).vipLevel)).toEqual(['vip1', 'vip']);
    expect(byName.every((entry) => entry.targetUser?.email === ishaan.email && entry.actor?.id === admin.id)).toBe(true);
    const byEmail = await search(`q=${encodeURIComponent(zubin.email)}`);
    expect(byEmail.map((entry) => entry.targetUser?.id)).toEqual([zubin.id]);
  });

  it('combines the search with the action and user filters, and treats % and _ as themselves', async () => {
    expect(await search('q=vermaland&action=settings.update')).toEqual([]);
    expect((await search(`q=vermaland&action=user.update&targetUserId=${ishaan.id}`)).length).toBe(2);
    expect(await search(`q=vermaland&targetUserId=${zubin.id}`)).toEqual([]);
    expect(await search('q=%25')).toEqual([]);
    expect(await search('q=Ishaan_Vermaland')).toEqual([]);
    expect(await search('q=nobody-is-called-this')).toEqual([]);
  });

  it('filters by days in India time, both ends included', async () => {
    const target = await signUpUser(harness.app, { fullName: 'Dated Entries' });
    expect((await setVipLevel(admin, target, 'vip')).statusCode).toBe(200);
    expect((await setVipLevel(admin, target, 'vip2')).statusCode).toBe(200);
    // The first at the first moment of 1 March in India, the second at the last second of 28 February there.
    await db().execute(sql`update audit_log set created_at = '2025-03-01 00:00:00+05:30' where target_user_id = ${target.id} and after->>'vipLevel' = 'vip'`);
    await db().execute(sql`update audit_log set created_at = '2025-02-28 23:59:59+05:30' where target_user_id = ${target.id} and after->>'vipLevel' = 'vip2'`);
    const levels = async (query: string) => (await search(`targetUserId=${target.id}&${query}`)).map((entry) => (entry.after as { vipLevel: string }).vipLevel);
    expect(await levels('from=2025-03-01')).toEqual(['vip']);
    expect(await levels('to=2025-02-28')).toEqual(['vip2']);
    expect(await levels('from=2025-02-28&to=2025-03-01')).toEqual(['vip', 'vip2']);
    expect(await levels('from=2025-03-01&to=2025-03-01')).toEqual(['vip']);
    expect(await levels('from=2025-03-02')).toEqual([]);
    // Today's entries are in today's India day.
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date());
    expect((await search(`q=vermaland&from=${today}&to=${today}`)).length).toBe(2);
  });

  it('pages through a search with the one keyset cursor, and bounds the page size', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const url: string = `/api/admin/audit-log?q=vermaland&limit=1${cursor ? `&cursor=${cursor}` : ''}`;
      const page = auditLogResponseSchema.parse((await call(harness.app, { url, cookie: admin.cookie })).json());
      expect(page.items.length).toBeLessThanOrEqual(1);
      seen.push(...page.items.map((entry) => entry.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual((await search('q=vermaland')).map((entry) => entry.id));
    for (const limit of ['0', '101', '1e1']) {
      expect((await call(harness.app, { url: `/api/admin/audit-log?limit=${limit}`, cookie: admin.cookie })).statusCode).toBe(400);
    }
  });

  it('refuses malformed searches and dates with a message on the field', async () => {
    const cases: [string, string, string][] = [
      [`q=${'a'.repeat(101)}`, 'q', 'Search text must be at most 100 characters'],
      ['from=2025-02-30', 'from', 'Enter a date as YYYY-MM-DD'],
      ['to=01-03-2025', 'to', 'Enter a date as YYYY-MM-DD'],
      ['from=2025-03-02&to=2025-03-01', 'to', 'The start date must not be after the end date'],
    ];
    for (const [query, field, message] of cases) {
      for (const path of ['/api/admin/audit-log', '/api/admin/audit-log.csv']) {
        const response = await call(harness.app, { url: `${path}?${query}`, cookie: admin.cookie });
        expect(response.statusCode, `${path}?${query}`).toBe(400);
        expect(response.json().error.fields[field]).toBe(message);
      }
    }
  });

  it('is for admins only: VIP-level customers and customers are refused, strangers asked to sign in', async () => {
    const vip = await signUpVipCustomer(harness);
    const customer = await signUpUser(harness.app);
    for (const path of ['/api/admin/audit-log?q=vermaland', '/api/admin/audit-log.csv?q=vermaland']) {
      expect((await call(harness.app, { url: path, cookie: vip.cookie })).statusCode).toBe(403);
      expect((await call(harness.app, { url: path, cookie: customer.cookie })).statusCode).toBe(403);
      expect((await call(harness.app, { url: path })).statusCode).toBe(401);
    }
  });
});

describe('audit log CSV', () => {
  it('exports what the same filters list, with names and e-mails, formula-safe', async () => {
    const target = await signUpUser(harness.app, { fullName: 'Formula Person' });
    expect((await setVipLevel(admin, target, 'vip3')).statusCode).toBe(200);
    await db().execute(sql`update profiles set name = '=HYPERLINK("http://evil.example")' where user_id = ${target.id}`);

    const response = await call(harness.app, {
      url: `/api/admin/audit-log.csv?q=${encodeURIComponent(target.email)}&action=user.update`,
      cookie: admin.cookie,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    expect(response.headers['content-disposition']).toBe('attachment; filename="audit-log.csv"');
    expect(response.headers['x-row-count']).toBe('1');
    expect(response.headers['x-truncated']).toBe('false');
    const lines = response.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('"Time (India)","Action","Admin","Admin e-mail","User","User e-mail","Target","Target ID","Before","After","IP address"');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`"user.update","Admin Person","${admin.email}","'=HYPERLINK(""http://evil.example"")","${target.email}","user","${target.id}"`);
    expect(lines[1]).toMatch(/^"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}",/);

    const listed = await search('q=vermaland');
    const exported = await call(harness.app, { url: '/api/admin/audit-log.csv?q=vermaland', cookie: admin.cookie });
    expect(exported.headers['x-row-count']).toBe(String(listed.length));
  });

  it(`stops at ${AUDIT_LOG_CSV_MAX_ROWS} rows, newest first, and says so`, async () => {
    await db().execute(sql`
      insert into audit_log (actor_user_id, action, target_type, target_id, created_at)
      select ${admin.id}, 'settings.update', 'bulk', i::text, '2020-01-01'::timestamptz + i * interval '1 second'
      from generate_series(1, ${AUDIT_LOG_CSV_MAX_ROWS + 1}) as i`);
    const response = await call(harness.app, { url: '/api/admin/audit-log.csv?action=settings.update&to=2020-01-02', cookie: admin.cookie });
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-row-count']).toBe(String(AUDIT_LOG_CSV_MAX_ROWS));
    expect(response.headers['x-truncated']).toBe('true');
    const lines = response.body.trimEnd().split('\r\n');
    expect(lines).toHaveLength(AUDIT_LOG_CSV_MAX_ROWS + 1);
    expect(lines[1]).toContain(`"bulk","${AUDIT_LOG_CSV_MAX_ROWS + 1}"`);
    await db().execute(sql`delete from audit_log where target_type = 'bulk'`);
  });
});
