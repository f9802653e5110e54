import { beforeAll, describe, expect, it } from 'vitest';
import { useIntegrationFile } from '../fixtures/integration-file.ts';
import { call, signUpUser } from '../fixtures/test-app.ts';

/*
 * Every paged list speaks one scheme: an opaque cursor of (created_at, id),
 * so a cursor of one list is refused by another with 400, never a server error.
 */

const { harness, admin } = useIntegrationFile({ depositAddresses: false });

beforeAll(async () => {
  for (let index = 0; index < 3; index += 1) {
    const user = await signUpUser(harness.app);
    const response = await call(harness.app, { method: 'PATCH', url: `/api/admin/users/${user.id}`, cookie: admin.cookie, body: { vipLevel: 'vip1' } });
    expect(response.statusCode).toBe(200);
  }
});

async function allPages(url: string): Promise<{ ids: string[]; cursors: string[] }> {
  const ids: string[] = [];
  const cursors: string[] = [];
  let cursor: string | null = null;
  do {
    const response = await call(harness.app, {
      url: `${url}${url.includes('?') ? '&' : '?'}limit=1${cursor ? `&cursor=${cursor}` : ''}`,
      cookie: admin.cookie,
    });
    expect(response.statusCode, response.body).toBe(200);
    const page = response.json<{ items: { id: string }[]; nextCursor: string | null }>();
    ids.push(...page.items.map((item) => item.id));
    cursor = page.nextCursor;
    if (cursor) cursors.push(cursor);
  } while (cursor);
  return { ids, cursors };
}

describe('one cursor scheme for every list', () => {
  it('pages the audit log and the users one entry at a time, without repeats, with opaque cursors', async () => {
    const audit = await allPages('/api/admin/audit-log?action=user.update');
    expect(audit.ids).toHaveLength(3);
    expect(new Set(audit.ids).size).toBe(3);
    const users = await allPages('/api/admin/users');
    expect(users.ids.length).toBeGreaterThanOrEqual(4);
    expect(new Set(users.ids).size).toBe(users.ids.length);
    for (const cursor of [...audit.cursors, ...users.cursors]) expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('refuses a cursor of another list with 400', async () => {
    const auditCursor = (await allPages('/api/admin/audit-log?action=user.update')).cursors[0];
    const userCursor = (await allPages('/api/admin/users')).cursors[0];
    for (const url of [`/api/admin/users?cursor=${auditCursor}`, `/api/admin/audit-log?cursor=${userCursor}`, '/api/admin/audit-log?cursor=12']) {
      const response = await call(harness.app, { url, cookie: admin.cookie });
      expect(response.statusCode, url).toBe(400);
      expect(response.json().error.message).toBe('Invalid page cursor');
    }
  });
});
