import type { Me } from '#shared/contracts/auth';
import { usdtMicrosToWire } from '#shared/money';
import { maskPan } from '#shared/contracts/withdrawal-rules';
import type { Executor } from '../../db/client.ts';
import type { SessionProfile, SessionRecord } from '../../platform/sessions/repository.ts';
import { findUserProfile } from './repository.ts';

function toMe(session: Pick<SessionRecord, 'userId' | 'role' | 'vipLevel' | 'pinVerified'>, profile: SessionProfile): Me {
  return {
    id: session.userId,
    email: profile.email,
    name: profile.name,
    phone: profile.phone,
    role: session.role,
    vipLevel: session.vipLevel,
    referralCode: profile.referralCode,
    balanceUsdt: usdtMicrosToWire(profile.balanceUsdtMicros),
    hasPin: profile.hasPin,
    pinVerified: session.pinVerified,
    createdAt: profile.createdAt.toISOString(),
    pan: profile.pan === null ? null : maskPan(profile.pan),
  };
}

/** A user's own profile, as `GET /api/me` answers it, read from the database (after sign-up and login). */
export async function loadMe(db: Executor, session: Pick<SessionRecord, 'userId' | 'pinVerified'>): Promise<Me> {
  const row = await findUserProfile(db, session.userId);
  if (!row) throw new Error(`session refers to a missing user ${session.userId}`);
  return toMe({ userId: row.id, role: row.role as Me['role'], vipLevel: row.vipLevel as Me['vipLevel'], pinVerified: session.pinVerified }, row);
}

/** `GET /api/me` from the session lookup, which read the profile in the same statement (the route's `sessionWithProfile`). */
export function meOfSession(session: SessionRecord): Me {
  if (!session.profile) throw new Error('GET /api/me needs a session looked up with its profile (config.sessionWithProfile)');
  return toMe(session, session.profile);
}
