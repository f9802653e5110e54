import {
  ACCEPTABLE_PAYEE_CHECKS,
  BANK_ACCOUNT_MESSAGES,
  coolingOffLifted,
  isBlockingPayeeCheck,
  lastFourDigits,
  PAYEE_ADMIN_MESSAGES,
  PAYEE_CHECKS_PER_DAY,
  type AdminPayee,
  type PayeeCheck,
} from '#shared/contracts/bank-accounts';
import { INVALID_PAGE_CURSOR_MESSAGE } from '#shared/contracts/common';
import { matchNames, type NameMatch } from '#shared/name-match';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Executor } from '../../db/client.ts';
import type { PayeeCheckConfig, RazorpayXConfig } from '../../env.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../../platform/audit/record.ts';
import { createNotifications } from '../../platform/notifications/service.ts';
import { decodeCursor, toPageBy } from '../../platform/pagination/cursor.ts';
import { payeeBlocked } from '../notifications/templates.ts';
import { findOpenChange, needsSecondAdmin, requestChange, type Actor, type ChangeHandler } from '../pending-changes/service.ts';
import { createCashfreeValidationClient } from '../payouts/cashfree-validations.ts';
import { PayoutProviderError, providerBackoffSeconds } from '../payouts/provider.ts';
import { createRazorpayXValidationClient, type AccountValidationFacts, type AccountValidationProvider } from '../payouts/razorpayx-validations.ts';
import { toBankAccountView } from './view.ts';
import * as validationRepository from './validation-repository.ts';
import type { AdminPayeeRow, PayeeValidationRow } from './validation-repository.ts';

/*
 * A new or changed payee is checked like a bank checks it (decision 054): the payout provider's account
 * validation sends it a penny and answers whether the account is active and the name its bank has for it.
 * That name is compared with the customer's by the one name rule (#shared/name-match). The check runs after
 * the payee is saved: the saving request waits for it at most CHECK_WAIT_MILLISECONDS, and the worker
 * (validation-worker.ts), a webhook or a later poll finishes what that wait did not.
 */

/** How long the request that saved a payee waits for the provider's first answer before it answers itself. */
const CHECK_WAIT_MILLISECONDS = 3_000;
/** A validation asked this many times without a final answer is given up as failed (an admin may accept the payee). */
const MAX_VALIDATION_ATTEMPTS = 12;

/** RazorpayX's Fund Account Validation or Cashfree's Bank Account Verification: one interface, one set of payee rules (decision 062). */
export function validationProviderFrom(config: PayeeCheckConfig | undefined): AccountValidationProvider | undefined {
  if (!config) return undefined;
  return config.provider === 'razorpayx' ? createRazorpayXValidationClient(config) : createCashfreeValidationClient(config.verification);
}

/** Whether the configured provider checks a payee's UPI id too (RazorpayX and Cashfree both do: decisions 054, 068). */
export function validatesUpiIds(config: PayeeCheckConfig | undefined): boolean {
  return validationProviderFrom(config)?.validateVpa !== undefined;
}

/**
 * Records a validation of the payee's details, in the transaction that saves them (the owner is locked, so
 * two saves cannot both pass the limit). Refused with 429 when the customer had PAYEE_CHECKS_PER_DAY already.
 */
export async function queueValidation(
  transaction: Executor,
  payee: { userId: string; bankAccountId: string; accountHolderName: string; accountNumber: string; ifscCode: string },
): Promise<string> {
  if ((await validationRepository.countRecent(transaction, payee.userId)) >= PAYEE_CHECKS_PER_DAY) {
    throw new AppError(429, 'RATE_LIMITED', BANK_ACCOUNT_MESSAGES.tooManyChecks);
  }
  const row = await validationRepository.insertValidation(transaction, {
    userId: payee.userId,
    bankAccountId: payee.bankAccountId,
    accountHolderName: payee.accountHolderName,
    accountNumber: payee.accountNumber,
    ifscCode: payee.ifscCode,
  });
  return row.id;
}

/** The best verdict of the registered name against the customer's names (the PAN's registered name first). */
function nameMatchOf(registeredName: string, names: { profileName: string | null; panRegisteredName: string | null }): NameMatch {
  const rank = { match: 2, partial: 1, mismatch: 0 } as const;
  const candidates = [names.panRegisteredName, names.profileName].filter((name): name is string => name !== null && name.trim() !== '');
  return candidates
    .map((name) => matchNames(registeredName, name))
    .reduce<NameMatch>(
      (best, next) => (rank[next.verdict] > rank[best.verdict] || (rank[next.verdict] === rank[best.verdict] && next.score > best.score) ? next : best),
      {
        score: 0,
        verdict: 'mismatch',
      },
    );
}

export type ValidationOutcome = 'applied' | 'unchanged' | 'unknown_validation';

/**
 * Applies what the provider said of a validation, once: a final answer on a validation without one records it
 * and sets its payee's check (when the validation is still the one of the payee's current details); anything
 * else changes nothing. Safe to call from the request, the worker and a webhook at once (the row is locked).
 */
export async function applyValidationFacts(
  db: Database,
  where: { id: string } | { providerValidationId: string },
  facts: AccountValidationFacts,
  pollSeconds: number,
  validatesVpa: boolean,
): Promise<ValidationOutcome> {
  return db.transaction(async (transaction) => {
    const validation = await validationRepository.findForUpdate(transaction, where);
    if (!validation) return 'unknown_validation';
    if (validation.status === 'completed' || validation.status === 'failed') return 'unchanged';
    if (validation.providerValidationId !== null && validation.providerValidationId !== facts.providerValidationId) return 'unchanged';
    if (facts.status === 'created') {
      if (validation.status === 'created') return 'unchanged';
      await validationRepository.markCreated(transaction, validation.id, facts.providerValidationId, providerBackoffSeconds(pollSeconds, validation.attempts));
      return 'applied';
    }
    await finishValidation(transaction, validation, facts, validatesVpa);
    return 'applied';
  });
}

async function finishValidation(transaction: Executor, validation: PayeeValidationRow, facts: AccountValidationFacts, validatesVpa: boolean): Promise<void> {
  let check: PayeeCheck;
  let nameMatch: NameMatch | null = null;
  if (facts.status === 'failed') check = 'check_failed';
  else if (facts.accountStatus === 'invalid') check = 'invalid';
  else if (facts.accountStatus === 'active' && facts.registeredName !== null) {
    nameMatch = nameMatchOf(facts.registeredName, await validationRepository.customerNames(transaction, validation.userId));
    check = nameMatch.verdict === 'match' ? 'verified' : 'name_mismatch';
  } else {
    // Completed without the account's status or name: nothing was confirmed, so a person decides.
    check = 'check_failed';
  }
  await validationRepository.finish(transaction, validation.id, {
    status: facts.status === 'failed' ? 'failed' : 'completed',
    providerValidationId: facts.providerValidationId,
    accountStatus: facts.accountStatus,
    registeredName: facts.registeredName,
    nameVerdict: nameMatch?.verdict ?? null,
    nameScore: nameMatch?.score ?? null,
    failureReason:
      check === 'verified' || check === 'name_mismatch' ? null : (facts.details ?? (check === 'invalid' ? invalidReason(validation) : 'Validation failed')),
  });
  // A payout to a payee with a UPI id goes by UPI: the payee is verified only once its UPI id is too (decision 054).
  if (check === 'verified' && validation.vpa === null && validatesVpa && (await queueVpaValidation(transaction, validation))) return;
  await setPayeeCheck(transaction, validation, check, {
    nameVerdict: nameMatch?.verdict ?? null,
    nameScore: nameMatch?.score ?? null,
    accountStatus: facts.accountStatus,
    ...(validation.vpa === null ? {} : { destination: 'upi' }),
  });
}

function invalidReason(validation: PayeeValidationRow): string {
  return validation.vpa === null ? 'Account invalid' : 'UPI id invalid';
}

/**
 * After the bank account of a payee with a UPI id was verified: a validation of the UPI id becomes the payee's
 * current one, and the payee stays `checking` until it answers. False when the payee has no UPI id (or was edited since).
 */
async function queueVpaValidation(transaction: Executor, bankValidation: PayeeValidationRow): Promise<boolean> {
  const payee = await validationRepository.findCheckingPayeeOf(transaction, bankValidation.id);
  if (!payee || payee.upiId === null) return false;
  const row = await validationRepository.insertValidation(transaction, {
    userId: bankValidation.userId,
    bankAccountId: payee.id,
    accountHolderName: bankValidation.accountHolderName,
    accountNumber: bankValidation.accountNumber,
    ifscCode: bankValidation.ifscCode,
    vpa: payee.upiId,
  });
  await validationRepository.moveCheckTo(transaction, payee.id, bankValidation.id, row.id);
  return true;
}

/** Gives up a validation the provider refused or never answered: its payee waits for an admin. */
async function failValidation(db: Database, validationId: string, reason: string): Promise<void> {
  await db.transaction(async (transaction) => {
    const validation = await validationRepository.findForUpdate(transaction, { id: validationId });
    if (!validation || validation.status === 'completed' || validation.status === 'failed') return;
    await validationRepository.finish(transaction, validation.id, {
      status: 'failed',
      providerValidationId: validation.providerValidationId,
      accountStatus: null,
      registeredName: null,
      nameVerdict: null,
      nameScore: null,
      failureReason: reason,
    });
    await setPayeeCheck(transaction, validation, 'check_failed', { reason });
  });
}

/** The payee's check, with its audit entry (by the system); a payee edited since has another validation and is left alone. */
async function setPayeeCheck(transaction: Executor, validation: PayeeValidationRow, check: PayeeCheck, details: Record<string, unknown>): Promise<void> {
  const payee = await validationRepository.setCheckOf(transaction, validation.id, check);
  if (!payee) return;
  await recordAudit(transaction, {
    actorUserId: null,
    action: 'payee.check',
    targetType: 'bank_account',
    targetId: payee.id,
    targetUserId: payee.userId,
    before: { payeeCheck: 'checking' },
    // A match lifts the payee's cooling-off (decisions 054, 068): said here, so that the audit log shows why it was lifted.
    after: {
      payeeCheck: check,
      validationId: validation.id,
      coolingOffLifted: coolingOffLifted({ payeeCheck: check, upiId: payee.upiId, checkedUpiId: validation.vpa }),
      ...details,
    },
  });
  // A blocked payee is told to its owner at once (issue 31): a withdrawal to it would be refused until they act.
  if (isBlockingPayeeCheck(check))
    await createNotifications(transaction, [
      payeeBlocked({ userId: payee.userId, bankName: payee.bankName, accountNumberLast4: lastFourDigits(payee.accountNumber), check }),
    ]);
}

/**
 * One step of a claimed validation: sends it when it was never sent, else asks about it; applies the answer.
 * A refusal (400) ends it as failed; an unknown outcome is asked again later, at most MAX_VALIDATION_ATTEMPTS times.
 */
export async function stepValidation(
  db: Database,
  provider: AccountValidationProvider,
  validation: PayeeValidationRow,
  pollSeconds: number,
  log: FastifyBaseLogger,
): Promise<void> {
  if (validation.vpa !== null && !provider.validateVpa) {
    // Queued while another provider was configured: this one cannot check a UPI id, so a person decides.
    await failValidation(db, validation.id, 'The payout provider does not validate UPI ids');
    return;
  }
  try {
    const facts =
      validation.providerValidationId === null
        ? await sendValidation(provider, validation)
        : await provider.fetch(validation.providerValidationId, validation.vpa === null ? 'bank_account' : 'vpa');
    await applyValidationFacts(db, { id: validation.id }, facts, pollSeconds, provider.validateVpa !== undefined);
    if (facts.status === 'created' && validation.providerValidationId !== null) await nextAttemptOrGiveUp(db, validation, pollSeconds, null);
  } catch (error) {
    if (!(error instanceof PayoutProviderError)) throw error;
    if (error.kind === 'refused') {
      log.warn({ validationId: validation.id, error: error.message }, 'The payout provider refused an account validation');
      await failValidation(db, validation.id, error.message);
      return;
    }
    log.warn({ validationId: validation.id, error: error.message }, 'Account validation error; asked again later');
    await nextAttemptOrGiveUp(db, validation, pollSeconds, error.message);
  }
}

function sendValidation(provider: AccountValidationProvider, validation: PayeeValidationRow): Promise<AccountValidationFacts> {
  const common = { validationId: validation.id, holderName: validation.accountHolderName, customerReference: validation.userId };
  if (validation.vpa !== null && provider.validateVpa) return provider.validateVpa({ ...common, vpa: validation.vpa });
  return provider.validate({ ...common, accountNumber: validation.accountNumber, ifsc: validation.ifscCode });
}

async function nextAttemptOrGiveUp(db: Database, validation: PayeeValidationRow, pollSeconds: number, lastError: string | null): Promise<void> {
  if (validation.attempts >= MAX_VALIDATION_ATTEMPTS) {
    await failValidation(db, validation.id, lastError ?? 'No answer from the bank');
    return;
  }
  await validationRepository.reschedule(db, validation.id, providerBackoffSeconds(pollSeconds, validation.attempts), lastError);
}

/**
 * After the request that saved the payee committed: the first step of its validation, waited for at most
 * CHECK_WAIT_MILLISECONDS (the step goes on after that, and the worker takes over if this process stops).
 */
export async function checkSoon(db: Database, config: PayeeCheckConfig | undefined, validationId: string | undefined, log: FastifyBaseLogger): Promise<void> {
  const provider = validationProviderFrom(config);
  if (!provider || !config || validationId === undefined) return;
  const step = (async () => {
    // The bank account first, then (when it was verified and the payee has a UPI id) the UPI id, within the same wait.
    let current: string | undefined = validationId;
    for (let round = 0; round < 2 && current !== undefined; round += 1) {
      const [validation] = await validationRepository.claim(db, { limit: 1, leaseSeconds: 120, only: current });
      if (!validation) return;
      await stepValidation(db, provider, validation, config.pollSeconds, log);
      current = await validationRepository.queuedVpaValidationAfter(db, validation.id);
    }
  })().catch((error: unknown) => log.error({ err: error, validationId }, 'Account validation failed'));
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, CHECK_WAIT_MILLISECONDS);
    timer.unref();
  });
  await Promise.race([step, waited]);
  clearTimeout(timer);
}

/** POST /api/webhooks/razorpayx/validations: verified by its signature; a validation's event applied once. */
export async function receiveValidationWebhook(
  db: Database,
  config: RazorpayXConfig,
  rawBody: Buffer,
  headers: Record<string, string | string[] | undefined>,
): Promise<{ outcome: ValidationOutcome | 'ignored' }> {
  const provider = createRazorpayXValidationClient(config);
  if (!provider.verifyWebhook(rawBody, headers)) throw new AppError(400, 'VALIDATION_FAILED', 'The webhook signature is missing or wrong.');
  let facts;
  try {
    facts = provider.readWebhook(rawBody);
  } catch (error) {
    if (error instanceof PayoutProviderError) throw new AppError(400, 'VALIDATION_FAILED', 'The webhook could not be read.');
    throw error;
  }
  if (!facts) return { outcome: 'ignored' };
  return { outcome: await applyValidationFacts(db, { providerValidationId: facts.providerValidationId }, facts, config.pollSeconds, true) };
}

function adminPayeeOf(row: AdminPayeeRow): AdminPayee {
  const { account, validation } = row;
  return {
    ...toBankAccountView(account, false),
    userId: account.userId,
    customerName: row.customerName,
    customerEmail: row.customerEmail,
    acceptedAt: account.acceptedAt?.toISOString() ?? null,
    rejectedAt: account.rejectedAt?.toISOString() ?? null,
    rejectionReason: account.rejectionReason,
    validation: validation && {
      id: validation.id,
      status: validation.status,
      accountStatus: validation.accountStatus,
      registeredName: validation.registeredName,
      vpa: validation.vpa,
      nameVerdict: validation.nameVerdict,
      nameScore: validation.nameScore,
      failureReason: validation.failureReason,
      providerValidationId: validation.providerValidationId,
      requestedAt: validation.createdAt.toISOString(),
      completedAt: validation.completedAt?.toISOString() ?? null,
    },
  };
}

export async function listCustomerPayees(db: Executor, userId: string): Promise<AdminPayee[]> {
  return (await validationRepository.listAdminPayees(db, userId, 50)).map(adminPayeeOf);
}

/** The admins' review queue of payees the bank did not confirm, oldest first, a page at a time. */
export async function listPayeesForReview(
  db: Executor,
  query: { cursor?: string | undefined; limit: number },
): Promise<{ items: AdminPayee[]; nextCursor: string | null }> {
  const cursor = decodeCursor(query.cursor, { invalidMessage: INVALID_PAGE_CURSOR_MESSAGE });
  const rows = await validationRepository.listPayeesForReview(db, cursor, query.limit + 1);
  const page = toPageBy(rows, query.limit, (row) => ({ createdAt: row.cursorAt, id: row.account.id }));
  return { items: page.rows.map(adminPayeeOf), nextCursor: page.nextCursor };
}

/** The payee locked, when an admin may still decide it (decision 057); else 409 with `refusal`, or the stale change's 409. */
async function lockedUndecidedPayee(transaction: Executor, bankAccountId: string, refusal: string, validationId?: string | null) {
  const payee = await validationRepository.findPayeeForUpdate(transaction, bankAccountId);
  if (!payee) throw AppError.notFound(BANK_ACCOUNT_MESSAGES.notFound);
  if (validationId !== undefined && payee.validationId !== validationId) throw AppError.conflict(PAYEE_ADMIN_MESSAGES.changed, 'STALE_CHANGE');
  if (!ACCEPTABLE_PAYEE_CHECKS.includes(payee.payeeCheck)) throw AppError.conflict(refusal);
  return payee;
}

async function applyAcceptance(transaction: Executor, change: { bankAccountId: string; validationId: string | null }, actor: Actor): Promise<void> {
  const payee = await lockedUndecidedPayee(transaction, change.bankAccountId, PAYEE_ADMIN_MESSAGES.notAcceptable, change.validationId);
  await validationRepository.acceptPayee(transaction, payee.id, actor.userId);
  await recordAudit(transaction, {
    actorUserId: actor.userId,
    action: 'payee.accept',
    targetType: 'bank_account',
    targetId: payee.id,
    targetUserId: payee.userId,
    before: { payeeCheck: payee.payeeCheck, validationId: payee.validationId },
    after: { payeeCheck: 'accepted' },
    ipAddress: actor.ipAddress,
  });
}

/** The payee takes no withdrawal until its owner edits or deletes it; the owner is told, without the admin's reason. */
async function applyRejection(
  transaction: Executor,
  change: { bankAccountId: string; validationId: string | null; reason: string },
  actor: Actor,
): Promise<void> {
  const payee = await lockedUndecidedPayee(transaction, change.bankAccountId, PAYEE_ADMIN_MESSAGES.notRejectable, change.validationId);
  await validationRepository.rejectPayee(transaction, payee.id, { adminUserId: actor.userId, reason: change.reason });
  await recordAudit(transaction, {
    actorUserId: actor.userId,
    action: 'payee.reject',
    targetType: 'bank_account',
    targetId: payee.id,
    targetUserId: payee.userId,
    before: { payeeCheck: payee.payeeCheck, validationId: payee.validationId },
    after: { payeeCheck: 'rejected', reason: change.reason },
    ipAddress: actor.ipAddress,
  });
  await createNotifications(transaction, [
    payeeBlocked({ userId: payee.userId, bankName: payee.bankName, accountNumberLast4: lastFourDigits(payee.accountNumber), check: 'rejected' }),
  ]);
}

const lockPayee = async (transaction: Executor, bankAccountId: string) => {
  await validationRepository.findPayeeForUpdate(transaction, bankAccountId);
};

/** A second admin's confirm of an acceptance: the payee must still have the check that was accepted. */
export const payeeAcceptanceHandler: ChangeHandler<'payee_acceptance'> = {
  kind: 'payee_acceptance',
  lockSubject: lockPayee,
  apply: async (transaction, change, decider) => applyAcceptance(transaction, change.payload, decider),
};

/** A second admin's confirm of a rejection: likewise, the payee must still have the check that was rejected. */
export const payeeRejectionHandler: ChangeHandler<'payee_rejection'> = {
  kind: 'payee_rejection',
  lockSubject: lockPayee,
  apply: async (transaction, change, decider) => applyRejection(transaction, change.payload, decider),
};

type PayeeDecision = { kind: 'payee_acceptance' } | { kind: 'payee_rejection'; reason: string };

const PAYEE_DECISION_MESSAGES = {
  payee_acceptance: { refusal: PAYEE_ADMIN_MESSAGES.notAcceptable, waiting: PAYEE_ADMIN_MESSAGES.acceptWaiting, done: PAYEE_ADMIN_MESSAGES.accepted },
  payee_rejection: { refusal: PAYEE_ADMIN_MESSAGES.notRejectable, waiting: PAYEE_ADMIN_MESSAGES.rejectWaiting, done: PAYEE_ADMIN_MESSAGES.rejected },
} as const;
const ALREADY_WAITING_MESSAGES = { payee_acceptance: PAYEE_ADMIN_MESSAGES.alreadyWaiting, payee_rejection: PAYEE_ADMIN_MESSAGES.rejectionWaiting } as const;

type PayeeDecisionAnswer = { statusCode: 200 | 202; body: { message: string; payee: AdminPayee; pendingChangeId: string | null } };

/**
 * An admin accepts or rejects a payee whose name did not match or whose check failed: at once while one admin exists,
 * else as a change a second admin confirms (202). At most one decision on a payee waits at a time; a payee decided
 * already, or whose check asks for no decision, is a 409.
 */
async function decidePayee(db: Database, actor: Actor, bankAccountId: string, decision: PayeeDecision): Promise<PayeeDecisionAnswer> {
  const messages = PAYEE_DECISION_MESSAGES[decision.kind];
  return db.transaction(async (transaction) => {
    const payee = await lockedUndecidedPayee(transaction, bankAccountId, messages.refusal);
    const view = async () => {
      const row = await validationRepository.findAdminPayee(transaction, bankAccountId);
      if (!row) throw AppError.notFound(BANK_ACCOUNT_MESSAGES.notFound);
      return adminPayeeOf(row);
    };
    const subject = { bankAccountId, validationId: payee.validationId };
    if (await needsSecondAdmin(transaction)) {
      for (const kind of ['payee_acceptance', 'payee_rejection'] as const) {
        if (await findOpenChange(transaction, kind, bankAccountId)) throw AppError.conflict(ALREADY_WAITING_MESSAGES[kind], 'CHANGE_ALREADY_WAITING');
      }
      const payload = { ...subject, userId: payee.userId, check: payee.payeeCheck };
      const pending =
        decision.kind === 'payee_acceptance'
          ? await requestChange(transaction, 'payee_acceptance', payload, actor)
          : await requestChange(transaction, 'payee_rejection', { ...payload, reason: decision.reason }, actor);
      return { statusCode: 202, body: { message: messages.waiting, payee: await view(), pendingChangeId: pending.id } };
    }
    if (decision.kind === 'payee_acceptance') await applyAcceptance(transaction, subject, actor);
    else await applyRejection(transaction, { ...subject, reason: decision.reason }, actor);
    return { statusCode: 200, body: { message: messages.done, payee: await view(), pendingChangeId: null } };
  });
}

/** Accepting lets money go to an account the bank did not confirm is in the customer's name (decision 054). */
export async function acceptPayee(db: Database, actor: Actor, bankAccountId: string): Promise<PayeeDecisionAnswer> {
  return decidePayee(db, actor, bankAccountId, { kind: 'payee_acceptance' });
}

/** Rejecting keeps the payee from withdrawals until its owner edits or deletes it (decision 057). */
export async function rejectPayee(db: Database, actor: Actor, bankAccountId: string, reason: string): Promise<PayeeDecisionAnswer> {
  return decidePayee(db, actor, bankAccountId, { kind: 'payee_rejection', reason });
}
