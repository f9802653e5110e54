import { maskPan, WITHDRAWAL_RULE_MESSAGES } from '#shared/contracts/withdrawal-rules';
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
  findEmail,
  findPasswordHash,
  findUserIdByReferralCode,
  insertPasswordResetTokenForEmail,
  insertProfile,
  insertUser,
  insertWallet,
  markPasswordReset,
  roundTrip,
  setRole,
  updatePasswordHash,
} from './repository.ts';

/**
 * Saves the customer's PAN (already normalised by the contract): needed for
 * TDS (section 194S) on withdrawals. Audited with the PAN masked as shown.
 */
export async function setPan(db: Database, session: SessionRecord, pan: string, ipAddress: string): Promise<{ message: string; pan: string }> {
  return db.transaction(async (transaction) => {
    const { previous } = await userRepository.updatePan(transaction, session.userId, pan);
    if (previous !== pan) {
      await recordAudit(transaction, {
        actorUserId: session.userId,
        action: 'profile.pan_update',
        targetType: 'user',
        targetId: session.userId,
        targetUserId: session.userId,
        before: { pan: previous === null ? null : maskPan(previous) },
        after: { pan: maskPan(pan) },
        ipAddress,
      });
    }
    return { message: WITHDRAWAL_RULE_MESSAGES.panSaved, pan: maskPan(pan) };
  });
}
