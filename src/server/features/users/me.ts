import type { Me } from '../../../shared/contracts/auth.ts';
import { usdtMicrosToWire } from '../../../shared/money.ts';
import type { Executor } from '../../db/client.ts';
import type { SessionRecord } from '../../platform/sessions/repository.ts';
import { findUserProfile } from './repository.ts';

/** The signed-in user's own profile, as `GET /api/me` answers it. */
export async function loadMe(db: Executor, session: Pick<SessionRecord, 'userId' | 'pinVerified'>): Promise<Me> {
  const row = await findUserProfile(db, session.userId);
  if (!row) throw new Error(`session refers to a missing user ${session.userId}`);
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    phone: row.phone,
    role: row.role as Me['role'],
    vipLevel: row.vipLevel as Me['vipLevel'],
    referralCode: row.referralCode,
    balanceUsdt: usdtMicrosToWire(row.balanceUsdtMicros),
    hasPin: row.hasPin,
    pinVerified: session.pinVerified,
    createdAt: row.createdAt.toISOString(),
  };
}
