import type { Language, Role } from '#shared/contracts/enums';
import type { Database, Executor } from '../../db/client.ts';
import { recordAudit } from '../../platform/audit/record.ts';
import type { SessionRecord } from '../../platform/sessions/repository.ts';
import * as userRepository from './repository.ts';

/*
 * What other features may do with user accounts: sign-up (auth) creates them, password and PIN
 * checks read the password hash, transfers find the recipient. Other features call these
 * functions, never ./repository.ts (a lint rule checks it, and that its functions are not handed on).
 */

/** Whether any admin exists: the first start creates one when none does. */
export function adminExists(db: Executor): Promise<boolean> {
  return userRepository.adminExists(db);
}

/** The account signing in with this e-mail (any case), with its password hash and whether it is closed. */
export function findCredentialsByEmail(
  db: Executor,
  email: string,
): Promise<{ id: string; email: string; passwordHash: string; closedAt: Date | null } | undefined> {
  return userRepository.findCredentialsByEmail(db, email);
}

/** Where and in which language to write to the user (the profile's language, issue 33). */
export function findEmailAndLanguage(db: Executor, userId: string): Promise<{ email: string; language: Language } | undefined> {
  return userRepository.findEmailAndLanguage(db, userId);
}

export function findPasswordHash(db: Executor, userId: string): Promise<string | undefined> {
  return userRepository.findPasswordHash(db, userId);
}

/** The user a referral code belongs to. */
export function findUserIdByReferralCode(db: Executor, referralCode: string): Promise<string | undefined> {
  return userRepository.findUserIdByReferralCode(db, referralCode);
}

/**
 * Stores a password reset token for the account with this e-mail, doing the same work whether or not the
 * account exists (and storing nothing when it does not, when it is closed, or when `allowed` is false).
 */
export function insertPasswordResetTokenForEmail(
  db: Executor,
  email: string,
  tokenHash: Buffer,
  lifetimeMinutes: number,
  allowed: boolean,
): Promise<{ id: string; email: string; language: Language } | undefined> {
  return userRepository.insertPasswordResetTokenForEmail(db, email, tokenHash, lifetimeMinutes, allowed);
}

/** Inserts the profile unless its referral code is taken; false on that collision, so the caller can draw another code. */
export function insertProfile(
  db: Executor,
  values: { userId: string; name: string; phone: string; role?: Role; referralCode: string; referredByUserId: string | undefined; language?: Language },
): Promise<boolean> {
  return userRepository.insertProfile(db, values);
}

/** Creates the account's sign-in row; undefined when the e-mail is taken. */
export function insertUser(db: Executor, values: { email: string; passwordHash: string }): Promise<string | undefined> {
  return userRepository.insertUser(db, values);
}

/** Opens the new account's customer wallet in the ledger. */
export function insertWallet(db: Executor, userId: string): Promise<void> {
  return userRepository.insertWallet(db, userId);
}

/** Whether the account is open (decision 060), holding a share lock on its row until the transaction ends, so it cannot close meanwhile. */
export function lockOpenAccount(db: Executor, userId: string): Promise<boolean> {
  return userRepository.lockOpenAccount(db, userId);
}

/** A password set through a reset link: it starts the cooling-off of withdrawals and transfers. */
export function markPasswordReset(db: Executor, userId: string): Promise<void> {
  return userRepository.markPasswordReset(db, userId);
}

/** One database round trip that changes nothing, to keep two answers' work alike. */
export function roundTrip(db: Executor): Promise<void> {
  return userRepository.roundTrip(db);
}

export function setRole(db: Executor, userId: string, role: 'user' | 'admin'): Promise<void> {
  return userRepository.setRole(db, userId, role);
}

/** Replaces the password hash only while it is still `expectedHash`; false when it changed meanwhile. */
export function replacePasswordHash(db: Executor, userId: string, expectedHash: string, passwordHash: string): Promise<boolean> {
  return userRepository.replacePasswordHash(db, userId, expectedHash, passwordHash);
}

export function updatePasswordHash(db: Executor, userId: string, passwordHash: string): Promise<void> {
  return userRepository.updatePasswordHash(db, userId, passwordHash);
}

/**
 * Keeps the customer's choice of language with the account, so that another device and the e-mails follow it.
 */
export async function setLanguage(db: Database, session: SessionRecord, language: Language): Promise<{ language: Language }> {
  await userRepository.updateLanguage(db, session.userId, language);
  return { language };
}

/**
 * Sets the caller's own name and phone (already checked and normalised by the contract), audited
 * with before and after. A changed phone is e-mailed to the owner by the caller once committed:
 * an intruder who changes it must not go unnoticed. Answers whether the phone changed.
 */
export async function updateProfile(
  db: Database,
  session: SessionRecord,
  input: { fullName: string; phone: string },
  ipAddress: string,
): Promise<{ phoneChanged: boolean }> {
  return db.transaction(async (transaction) => {
    const previous = await userRepository.updateNameAndPhone(transaction, session.userId, input.fullName, input.phone);
    if (!previous) throw new Error(`session refers to a missing user ${session.userId}`);
    const before: Record<string, string> = {};
    const after: Record<string, string> = {};
    if (previous.previousName !== input.fullName) {
      before.name = previous.previousName;
      after.name = input.fullName;
    }
    if (previous.previousPhone !== input.phone) {
      before.phone = previous.previousPhone;
      after.phone = input.phone;
    }
    if (Object.keys(after).length > 0) {
      await recordAudit(transaction, {
        actorUserId: session.userId,
        action: 'profile.update',
        targetType: 'user',
        targetId: session.userId,
        targetUserId: session.userId,
        before,
        after,
        ipAddress,
      });
    }
    return { phoneChanged: previous.previousPhone !== input.phone };
  });
}
