import type { z } from 'zod';
import { payeeRefusal } from '#shared/contracts/bank-accounts';
import { limitTierOf, tdsInrPaiseFor, WITHDRAWAL_RULE_MESSAGES } from '#shared/contracts/withdrawal-rules';
import { quoteWithdrawal, WITHDRAWAL_DECIMALS, WITHDRAWAL_MESSAGES, type Withdrawal, type withdrawalRequestSchema } from '#shared/contracts/withdrawals';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { findEarlierAnswer, hashRequest, runOnce, type Answer, type IdempotencyScope } from '../../platform/idempotency/service.ts';
import { validatedInrPaise, validatedUsdtMicros } from '../../platform/ledger/amounts.ts';
import { house, moveMoney, wallet } from '../../platform/ledger/ledger.ts';
import type { SessionRecord } from '../../platform/sessions/repository.ts';
import { assertHeldAmountUntouched } from '../chain/incidents.ts';
import { assertMoneyMayLeave, levelLimitsOf, tdsBasisPointsFor } from '../kyc/service.ts';
import { checkPin } from '../pin/service.ts';
import { accountPauseFrom, assertWithdrawalAllowedFor } from '../security/cooling-off.ts';
import { assertWithinLevelLimits, assertWithinPeriodLimits, assertWithinWithdrawalBounds } from './limits.ts';
import * as requestRepository from './request-repository.ts';
import { toWithdrawalView } from './views.ts';
import { payeeCheckConfig } from '../../env.ts';

export type WithdrawalSubmission = z.output<typeof withdrawalRequestSchema>;
type WithdrawalAnswer = { withdrawal: Withdrawal; message: string };

/** Another customer's account is as unknown as a missing one: 404, so ids cannot be probed. */
function bankAccountNotFound(): AppError {
  return new AppError(404, 'NOT_FOUND', WITHDRAWAL_MESSAGES.bankAccountNotFound, { fields: { bankAccountId: WITHDRAWAL_MESSAGES.bankAccountNotFound } });
}

/**
 * A customer's withdrawal request: checks the PIN, then in one transaction
 * prices it at the stored rates (refusing it with 409 PRICE_CHANGED when the
 * customer confirmed a different INR amount), snapshots the bank details and
 * holds the USDT (wallet -> withdrawals pending). The INR is paid out by an
 * admin, who then approves it.
 */
export async function requestWithdrawal(
  context: AppContext,
  request: { ip: string },
  session: SessionRecord,
  input: WithdrawalSubmission,
  idempotencyKey?: string,
): Promise<Answer<WithdrawalAnswer>> {
  const { db } = context.database;
  const userId = session.userId;
  const amountUsdtMicros = validatedUsdtMicros(input.amount, WITHDRAWAL_DECIMALS);
  const expectedAmountInrPaise = input.expectedAmountInr === undefined ? undefined : validatedInrPaise(input.expectedAmountInr);
  const expectedNetInrPaise = input.expectedNetInr === undefined ? undefined : validatedInrPaise(input.expectedNetInr);
  // The expected INR amounts are a precondition, not part of what the request is: they stay out
  // of the hash, so a retry of a withdrawal that was made (say after a lost answer) replays that
  // withdrawal, with its INR amount, whatever the customer's preview shows now.
  const scope: IdempotencyScope | undefined = idempotencyKey
    ? {
        userId,
        key: idempotencyKey,
        operation: 'withdrawal.request',
        requestHash: hashRequest({ amountUsdtMicros: amountUsdtMicros.toString(), bankAccountId: input.bankAccountId }),
      }
    : undefined;
  // Before the PIN, so that choosing a wrong account does not cost a PIN attempt.
  if (!(await requestRepository.ownsBankAccount(db, userId, input.bankAccountId))) throw bankAccountNotFound();
  // The PIN comes before the replay: a stored answer is given only to someone who knows the PIN.
  await checkPin(context, request, session, input.pin, () => WITHDRAWAL_MESSAGES.incorrectPin);
  const earlier = await findEarlierAnswer<WithdrawalAnswer>(db, scope);
  if (earlier) return earlier;

  return runOnce(db, scope, async (transaction) => {
    // One statement reads everything the request needs and locks the bank account for share, so
    // it cannot be deleted meanwhile. It also publishes the request's events (delivered at
    // commit, dropped on a rollback), so that they go out before the insert below takes the
    // locks every customer's withdrawal shares (decision 022).
    const found = await requestRepository.findWithdrawalContext(transaction, { userId, bankAccountId: input.bankAccountId }, [
      { type: 'wallet.updated', userId, reason: 'withdrawal.requested' },
      { type: 'admin.queue.updated' },
    ]);
    if (found === undefined) throw new Error(`user ${userId} has no profile`);
    const bankAccount = ownedBankAccountOf(found);
    if (!bankAccount) throw bankAccountNotFound();
    assertMayWithdraw(context, found, bankAccount, amountUsdtMicros);
    // Priced in the transaction that read the rates and inserts the request, so the price saved is the price the customer confirmed.
    const { quote, tdsBasisPoints, tdsInrPaise } = priceWithdrawal(found, amountUsdtMicros, { expectedAmountInrPaise, expectedNetInrPaise });
    // From this insert (whose triggers lock the shared pending-withdrawals totals) to the commit,
    // every other customer's withdrawal waits: keep this stretch to the ledger statement (and the
    // limit sums when limits are set).
    const row = await requestRepository.insertWithdrawal(transaction, {
      userId,
      bankAccountId: bankAccount.id,
      accountHolderName: bankAccount.accountHolderName,
      accountNumber: bankAccount.accountNumber,
      bankName: bankAccount.bankName,
      ifscCode: bankAccount.ifscCode,
      upiId: bankAccount.upiId,
      amountUsdtMicros,
      rateInrPaise: quote.rateInrPaise,
      rateTier: quote.rateTier,
      amountInrPaise: quote.amountInrPaise,
      tdsBasisPoints,
      tdsInrPaise,
      pan: tdsBasisPoints > 0 ? found.pan : null,
    });
    await moveMoney(transaction, [
      { from: wallet(userId), to: house('withdrawals_pending'), amountUsdtMicros, reason: 'withdrawal_hold', referenceId: row.id },
    ]);
    // A deposit whose transfer vanished from the chain holds its amount (decision 036).
    await assertHeldAmountUntouched(transaction, userId);
    // After moveMoney, which locked the customer's wallet until this transaction ends: a
    // concurrent withdrawal of the same customer waits there for this one to commit or roll
    // back, and its sum (a new statement, read committed) then includes this withdrawal, so
    // together they cannot pass a limit. Taking the wallet lock any earlier would invert the
    // lock order that decisions use (withdrawal rows and their totals, then the ledger).
    await assertWithinPeriodLimits(transaction, found, limitTierOf(found.vipLevel), userId, amountUsdtMicros);
    await assertWithinLevelLimits(transaction, levelLimitsOf(found), userId, quote.amountInrPaise);
    return { statusCode: 201, body: { withdrawal: toWithdrawalView(row), message: WITHDRAWAL_MESSAGES.submitted } };
  });
}

type WithdrawalContext = requestRepository.WithdrawalContextRow;
type OwnedBankAccount = NonNullable<ReturnType<typeof ownedBankAccountOf>>;

/** The refusals of a withdrawal to this account, in the order a customer meets them; each is a 4xx with its own message. */
function assertMayWithdraw(context: AppContext, found: WithdrawalContext, bankAccount: OwnedBankAccount, amountUsdtMicros: bigint): void {
  // A flagged payee (decision 044) or one the bank's check did not confirm (decision 054) takes no withdrawal.
  const refusal = payeeRefusal({ ...found, payeeCheck: bankAccount.payeeCheck }, payeeCheckConfig(context.config) !== undefined);
  if (refusal !== undefined) throw new AppError(409, 'CONFLICT', refusal, { fields: { bankAccountId: refusal } });
  assertWithdrawalAllowedFor(context, accountPauseFrom(context, found), bankAccount);
  // The KYC money gate (decisions 042, 047): nothing leaves a frozen account, one below level 1 or one overdue for its KYC refresh.
  assertMoneyMayLeave('withdrawals', found, found);
  if (found.tdsBasisPoints > 0 && found.pan === null) throw new AppError(400, 'PAN_REQUIRED', WITHDRAWAL_RULE_MESSAGES.panRequired);
  assertWithinWithdrawalBounds(found, amountUsdtMicros);
}

/**
 * The withdrawal priced at the stored rates with its TDS; 409 PRICE_CHANGED when the customer
 * confirmed a different INR amount (gross or net) than these rates give.
 */
function priceWithdrawal(
  found: WithdrawalContext,
  amountUsdtMicros: bigint,
  expected: { expectedAmountInrPaise: bigint | undefined; expectedNetInrPaise: bigint | undefined },
) {
  const quote = quoteWithdrawal(amountUsdtMicros, found, found.vipLevel);
  // An inoperative PAN (not linked to Aadhaar) counts as no PAN: section 206AA's rate.
  const tdsBasisPoints = tdsBasisPointsFor(found, found.panAadhaarLinked);
  const tdsInrPaise = tdsInrPaiseFor(quote.amountInrPaise, BigInt(tdsBasisPoints));
  if (expected.expectedAmountInrPaise !== undefined && expected.expectedAmountInrPaise !== quote.amountInrPaise) {
    throw AppError.conflict(WITHDRAWAL_MESSAGES.priceChanged, 'PRICE_CHANGED');
  }
  if (expected.expectedNetInrPaise !== undefined && expected.expectedNetInrPaise !== quote.amountInrPaise - tdsInrPaise) {
    throw AppError.conflict(WITHDRAWAL_MESSAGES.priceChanged, 'PRICE_CHANGED');
  }
  return { quote, tdsBasisPoints, tdsInrPaise };
}

/** The bank account read with the request's context, when it is (still) the customer's. */
function ownedBankAccountOf(row: WithdrawalContext) {
  const { bankAccountId, accountHolderName, accountNumber, bankName, ifscCode, upiId, detailsChangedAt, payeeCheck, checkedUpiId } = row;
  if (
    bankAccountId === null ||
    accountHolderName === null ||
    accountNumber === null ||
    bankName === null ||
    ifscCode === null ||
    detailsChangedAt === null ||
    payeeCheck === null
  ) {
    return undefined;
  }
  return { id: bankAccountId, accountHolderName, accountNumber, bankName, ifscCode, upiId, detailsChangedAt, payeeCheck, checkedUpiId };
}
