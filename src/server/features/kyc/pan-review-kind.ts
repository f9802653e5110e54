import { maskPan, PAN_MESSAGES, panCardNeeded, type PanReview, type PanStatus } from '#shared/contracts/kyc';
import { matchNames } from '#shared/name-match';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import type { RequestKind } from '../../platform/decisions/decide.ts';
import type { NewNotification } from '../../platform/notifications/service.ts';
import * as kycRepository from './repository.ts';
import type { KycRow } from './repository.ts';
import { reviewOf } from './service.ts';

/*
 * A PAN waiting for a person (no provider, a partial name match, or a provider that could not answer)
 * is a request kind of the one decision flow (decisions 009, 033): approving verifies it with the name
 * printed on the card, rejecting refuses it with a reason the customer sees. The skeleton re-reads the
 * admin's role under lock, refuses the customer's own PAN, answers a second decision with 409, writes
 * the audit row (`kyc_pan.approve` / `kyc_pan.reject`) and refreshes every admin's queues.
 */

/** The case of one customer: the id is the customer's user id, the status the PAN's. */
export interface PanReviewCase {
  id: string;
  status: PanStatus;
  row: KycRow;
}

/** The decision's details as strings (the skeleton's shape); `aadhaarLinked` is 'yes' or 'no' when the admin said. */
export type PanReviewDetails = { registeredName?: string | undefined; aadhaarLinked?: 'yes' | 'no' | undefined; reason?: string | undefined };

export type PanReviewAnswer = { message: string; review: PanReview & { status: PanStatus } };

function caseOf(row: KycRow): PanReviewCase {
  return { id: row.userId, status: row.panStatus, row };
}

function checkValuesOf(row: KycRow, outcome: 'approved' | 'rejected', details: PanReviewDetails, adminUserId: string | null): kycRepository.PanCheckValues {
  const shared = { checkedBy: 'admin' as const, providerNameScore: row.panProviderNameScore, providerReference: null, reviewedByUserId: adminUserId };
  if (outcome === 'approved') {
    // A request without a body reaches here without the name: refused like a blank one, before anything changes.
    if (details.registeredName === undefined) throw AppError.validation(PAN_MESSAGES.reviewNameNeeded, { registeredName: PAN_MESSAGES.reviewNameNeeded });
    // Without a provider's answer the name comes from the card, so there must be a card to read it from (decision 066).
    if (panCardNeeded(row)) throw AppError.conflict(PAN_MESSAGES.reviewCardNeeded);
    return {
      ...shared,
      status: 'verified',
      registeredName: details.registeredName,
      // The customer's name as it is now is accepted for this PAN, so a person may accept a partial match.
      nameAccepted: row.name,
      aadhaarLinked: details.aadhaarLinked === undefined ? row.panAadhaarLinked : details.aadhaarLinked === 'yes',
      rejectionReason: null,
    };
  }
  if (details.reason === undefined) throw AppError.validation(PAN_MESSAGES.reviewReasonNeeded, { reason: PAN_MESSAGES.reviewReasonNeeded });
  return {
    ...shared,
    status: 'rejected',
    registeredName: row.panRegisteredName,
    nameAccepted: null,
    aadhaarLinked: row.panAadhaarLinked,
    rejectionReason: details.reason,
  };
}

function customerToldOf(row: KycRow, verified: boolean): NewNotification {
  const reason = row.panRejectionReason ?? '';
  return {
    userId: row.userId,
    kind: 'kyc_updated',
    title: verified ? 'PAN verified' : 'PAN not accepted',
    body: verified ? 'Your PAN is verified.' : `Your PAN was not accepted: ${reason}`,
    link: '/kyc',
    emailSubject: verified ? 'Your PAN is verified' : 'Your PAN was not accepted',
    emailText: verified
      ? 'Your PAN is verified. Open the KYC page in the app to see your level.'
      : `Your PAN was not accepted: ${reason}\n\nOpen the KYC page in the app to enter it again.`,
  };
}

async function reviewAnswerOf(db: Executor, row: KycRow): Promise<PanReview & { status: PanStatus }> {
  if (row.pan === null) throw new Error(`the PAN review of ${row.userId} has no PAN`);
  const otherAccounts = await kycRepository.countOtherAccountsWithPan(db, row.userId, row.pan);
  return { ...reviewOf(row, otherAccounts), status: row.panStatus };
}

export const panReviewDecisions: RequestKind<PanReviewCase, PanReviewDetails, PanReviewAnswer> = {
  noun: 'kyc_pan',
  waitingStatus: 'pending_review',
  messages: {
    notFound: PAN_MESSAGES.userNotFound,
    ownRequest: PAN_MESSAGES.reviewOwnAccount,
    alreadyDecided: () => PAN_MESSAGES.reviewNotPending,
  },
  // Locks the customer's profile (where the PAN lives), so a new submission waits for the decision.
  findById: async (db, id) => {
    const row = await kycRepository.findKyc(db, id, { forUpdate: true });
    return row === undefined ? undefined : caseOf(row);
  },
  partiesOf: (decided) => [decided.id],
  markDecided: async (db, id, decision) => {
    const row = await kycRepository.findKyc(db, id);
    if (row === undefined || row.pan === null || row.panStatus !== decision.from) return undefined;
    const values = checkValuesOf(row, decision.outcome, decision.details, decision.decidedByUserId);
    if (!(await kycRepository.recordPanCheck(db, id, row.pan, values))) return undefined;
    const after = await kycRepository.findKyc(db, id);
    return after === undefined ? undefined : caseOf(after);
  },
  settle: async (_db, decided, outcome) => {
    const { row } = decided;
    if (row.pan === null) throw new Error(`the PAN review of ${row.userId} has no PAN`);
    return {
      movements: [],
      targetUserId: row.userId,
      auditAfter: {
        status: row.panStatus,
        pan: maskPan(row.pan),
        registeredName: row.panRegisteredName,
        nameMatch: row.panRegisteredName === null ? null : matchNames(row.panRegisteredName, row.name),
        reason: row.panRejectionReason,
        aadhaarLinked: row.panAadhaarLinked,
      },
      events: [{ type: 'wallet.updated', userId: row.userId, reason: 'kyc.updated' }],
      notifications: [customerToldOf(row, outcome === 'approved')],
    };
  },
  answer: async (db, decided, outcome) => ({
    message: outcome === 'approved' ? PAN_MESSAGES.verified : PAN_MESSAGES.rejected,
    review: await reviewAnswerOf(db, decided.row),
  }),
};
