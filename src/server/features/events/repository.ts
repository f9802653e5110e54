import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';

const LOOKUP_BATCH_SIZE = 500;

/**
 * The sessions among `sessionIds` that are still usable, with whether their user
 * may see the admin queue. Unlike a request, this check does not count as
 * activity: an open stream alone must not keep a session alive.
 */
export async function findLiveSessionAudiences(
  db: Executor,
  sessionIds: string[],
  limits: { idleTimeoutSeconds: number; absoluteTimeoutSeconds: number },
): Promise<Map<string, { canSeeAdminQueue: boolean }>> {
  const live = new Map<string, { canSeeAdminQueue: boolean }>();
  for (let start = 0; start < sessionIds.length; start += LOOKUP_BATCH_SIZE) {
    const batch = sessionIds.slice(start, start + LOOKUP_BATCH_SIZE);
    const result = await db.execute<{ session_id: string; can_see_admin_queue: boolean }>(sql`
      select s.id as session_id, (p.role = 'admin' or p.vip_level <> 'normal') as can_see_admin_queue
      from sessions s
      join profiles p on p.user_id = s.user_id
      where s.id = any(${`{${batch.join(',')}}`}::uuid[])
        and s.last_seen_at > now() - make_interval(secs => ${limits.idleTimeoutSeconds})
        and s.created_at > now() - make_interval(secs => ${limits.absoluteTimeoutSeconds})`);
    for (const row of result.rows) live.set(row.session_id, { canSeeAdminQueue: row.can_see_admin_queue });
  }
  return live;
}
