import type { Me } from '#shared/contracts/auth';
import type { Language } from '#shared/contracts/enums';
import { usdtMicrosToWire } from '#shared/money';
import { maskPan } from '#shared/contracts/withdrawal-rules';
import type { Executor } from '../../db/client.ts';
import { joinedReadOf, type SessionJoinedRead, type SessionRecord } from '../../platform/sessions/repository.ts';
import { findUserProfile } from './repository.ts';

/** What GET /api/me answers besides the session itself. */
interface MeProfile {
  email: string;
  name: string;
  phone: string;
  referralCode: string;
  balanceUsdtMicros: bigint;
  hasPin: boolean;
  createdAt: Date;
  pan: string | null;
  language: Language;
}

/** GET /api/me's profile and balance, read in the session lookup's statement (the route's `sessionJoinedRead`). */
export const ME_PROFILE_READ: SessionJoinedRead<MeProfile> = {
  name: 'profile',
  columns: `u.email as "email", p.name as "name", p.phone as "phone", p.referral_code as "referralCode",
    coalesce(l.balance_usdt_micros, 0)::bigint as "balanceUsdtMicros", pin.user_id is not null as "hasPin", u.created_at as "createdAt", p.pan as "pan", p.language as "language"`,
  joins: `join users u on u.id = s.user_id
    left join ledger_accounts l on l.user_id = s.user_id
    left join user_pins pin on pin.user_id = s.user_id`,
  valueOf: (row) => ({
    email: row.email as string,
    name: row.name as string,
    phone: row.phone as string,
    referralCode: row.referralCode as string,
    balanceUsdtMicros: row.balanceUsdtMicros as bigint,
    hasPin: row.hasPin as boolean,
    createdAt: row.createdAt as Date,
    pan: row.pan as string | null,
    language: row.language as Language,
  }),
};

function toMe(session: Pick<SessionRecord, 'userId' | 'role' | 'vipLevel' | 'pinVerified'>, profile: MeProfile): Me {
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
    language: profile.language,
  };
}

/** A user's own profile, as `GET /api/me` answers it, read from the database (after sign-up and login). */
export async function loadMe(db: Executor, session: Pick<SessionRecord, 'userId' | 'pinVerified'>): Promise<Me> {
  const row = await findUserProfile(db, session.userId);
  if (!row) throw new Error(`session refers to a missing user ${session.userId}`);
  return toMe({ userId: row.id, role: row.role, vipLevel: row.vipLevel, pinVerified: session.pinVerified }, row);
}

/** `GET /api/me` from the session lookup, which read the profile in the same statement. */
export function meOfSession(session: SessionRecord): Me {
  return toMe(session, joinedReadOf(session, ME_PROFILE_READ));
}
