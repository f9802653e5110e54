import { randomInt } from 'node:crypto';
import type { Language } from '#shared/contracts/enums';
import { REFERRAL_CODE_PREFIX } from '#shared/limits';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { storePinChosenAtSignup } from '../pin/service.ts';
import * as users from '../users/service.ts';
import { hashSecret } from './passwords.ts';

const REFERRAL_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const REFERRAL_CODE_ATTEMPTS = 10;

export function newReferralCode(): string {
  let suffix = '';
  for (let index = 0; index < 5; index += 1) suffix += REFERRAL_ALPHABET[randomInt(REFERRAL_ALPHABET.length)];
  return `${REFERRAL_CODE_PREFIX}${suffix}`;
}

export const EMAIL_TAKEN_MESSAGE = 'This email is already registered. Please log in instead.';

export interface NewAccount {
  email: string;
  password: string;
  name: string;
  phone: string;
  pin: string | undefined;
  role: 'user' | 'admin';
  referredByUserId: string | undefined;
  language?: Language;
}

/**
 * Creates user, profile, wallet, hashed PIN and referral link. The caller runs
 * it inside one transaction, so a failure at any step leaves nothing behind.
 */
export async function createAccount(db: Executor, account: NewAccount): Promise<string> {
  const [passwordHash, pinHash] = await Promise.all([hashSecret(account.password), account.pin === undefined ? undefined : hashSecret(account.pin)]);
  const userId = await users.insertUser(db, { email: account.email, passwordHash });
  if (!userId) throw new AppError(409, 'EMAIL_TAKEN', EMAIL_TAKEN_MESSAGE, { fields: { email: EMAIL_TAKEN_MESSAGE } });
  let profileCreated = false;
  for (let attempt = 0; attempt < REFERRAL_CODE_ATTEMPTS && !profileCreated; attempt += 1) {
    profileCreated = await users.insertProfile(db, {
      userId,
      name: account.name,
      phone: account.phone,
      role: account.role,
      referralCode: newReferralCode(),
      referredByUserId: account.referredByUserId,
      language: account.language,
    });
  }
  if (!profileCreated) throw new Error('Could not draw an unused referral code');
  await users.insertWallet(db, userId);
  if (pinHash !== undefined) await storePinChosenAtSignup(db, userId, pinHash);
  return userId;
}
