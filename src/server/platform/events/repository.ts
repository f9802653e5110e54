import { and, eq, inArray } from 'drizzle-orm';
import { canReadOperatorFigures } from '#shared/access';
import type { Executor } from '../../db/client.ts';
import { profiles, sessions } from '../../db/schema.ts';
import { liveSession, type SessionLimits } from '../sessions/repository.ts';

const LOOKUP_BATCH_SIZE = 500;

/**
 * The sessions among `sessionIds` that are still usable, with whether their user
 * may see the admin queue. Unlike a request, this check does not count as
 * activity: an open stream alone must not keep a session alive.
 */
export async function findLiveSessionAudiences(db: Executor, sessionIds: string[], limits: SessionLimits): Promise<Map<string, { canSeeAdminQueue: boolean }>> {
  const live = new Map<string, { canSeeAdminQueue: boolean }>();
  for (let start = 0; start < sessionIds.length; start += LOOKUP_BATCH_SIZE) {
    const batch = sessionIds.slice(start, start + LOOKUP_BATCH_SIZE);
    const rows = await db
      .select({ sessionId: sessions.id, role: profiles.role })
      .from(sessions)
      .innerJoin(profiles, eq(profiles.userId, sessions.userId))
      .where(and(inArray(sessions.id, batch), liveSession(limits)));
    for (const row of rows) live.set(row.sessionId, { canSeeAdminQueue: canReadOperatorFigures(row.role) });
  }
  return live;
}
