import type { Language } from '#shared/contracts/enums';
import type { Database } from '../../db/client.ts';
import { recordAudit } from '../../platform/audit/record.ts';
import type { SessionRecord } from '../../platform/sessions/repository.ts';
import * as userRepository from './repository.ts';

/**
 * What other features may do with user accounts: sign-up (auth) creates them, password and PIN
 * checks read the password hash, transfers find the recipient. Other features import this
 * module, never ./repository.ts (a lint rule checks it).
 */
export {
  adminExists,
  findCredentialsByEmail,
  findEmailAndLanguage,
  findPasswordHash,
  findUserIdByReferralCode,
  insertPasswordResetTokenForEmail,
  insertProfile,
  insertUser,
  insertWallet,
  lockOpenAccount,
  markPasswordReset,
  roundTrip,
  setRole,
  replacePasswordHash,
  updatePasswordHash,
} from './repository.ts';

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
