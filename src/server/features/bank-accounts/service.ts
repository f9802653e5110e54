import type { z } from 'zod';
import {
  BANK_ACCOUNT_LIMITS,
  BANK_ACCOUNT_MESSAGES,
  lastFourDigits,
  type BankAccount,
  type IfscLookup,
  type bankAccountInputSchema,
  type bankAccountUpdateSchema,
} from '#shared/contracts/bank-accounts';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { Database, Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { notifySecurityChange, type SecurityChangeDetail } from '../security/notifications.ts';
import { assertAccountNotFrozen } from '../kyc/service.ts';
import { branchOfIfsc } from './ifsc-branches.ts';
import { lookUpIfsc } from './ifsc-directory.ts';
import * as bankAccountRepository from './repository.ts';
import type { BankAccountRow } from './repository.ts';
import { checkSoon, queueValidation, validatesUpiIds } from './validations.ts';
import { toBankAccountView } from './view.ts';
import { payeeCheckConfig } from '../../env.ts';

export async function listBankAccounts(db: Database, userId: string): Promise<BankAccount[]> {
  const rows = await bankAccountRepository.listByUser(db, userId);
  return rows.map((row) => toBankAccountView(row, row.hasPendingWithdrawal));
}

/** Adds an account; its owner is e-mailed, and withdrawals to it cool off (see features/security). */
export async function addBankAccount(
  context: AppContext,
  log: FastifyBaseLogger,
  userId: string,
  input: z.output<typeof bankAccountInputSchema>,
): Promise<BankAccount> {
  const providerConfig = payeeCheckConfig(context.config);
  // Refused offline first; the branch, if the API answers within its timeout, is asked outside the transaction.
  const { bankName, branchName } = await knownIfsc(context, log, input.ifscCode);
  const saved = await context.database.db.transaction(async (transaction) => {
    await bankAccountRepository.lockOwner(transaction, userId);
    await assertAccountNotFrozen(transaction, userId);
    if ((await bankAccountRepository.countByUser(transaction, userId)) >= BANK_ACCOUNT_LIMITS.accountsPerUser) {
      throw AppError.conflict(BANK_ACCOUNT_MESSAGES.tooMany);
    }
    await refuseDuplicate(transaction, userId, input.accountNumber, input.ifscCode);
    const row = await bankAccountRepository.insert(transaction, userId, {
      accountHolderName: input.accountHolderName,
      accountNumber: input.accountNumber,
      ifscCode: input.ifscCode,
      upiId: input.upiId,
      bankName,
      branchName,
    });
    // With a payout provider, the bank checks the new payee (decision 054); without one, the cooling-off alone applies.
    if (!providerConfig) return { row, validationId: undefined };
    const validationId = await queueValidation(transaction, { userId, bankAccountId: row.id, ...input });
    const checking = await bankAccountRepository.update(transaction, userId, row.id, { payeeCheck: 'checking', validationId });
    return { row: checking ?? row, validationId };
  });
  await notifySecurityChange(context, userId, 'bank-account-added', log);
  return checkedView(context, userId, saved, log);
}

/** The payee as saved, or as its check left it when the provider answered within the short wait. */
async function checkedView(
  context: AppContext,
  userId: string,
  saved: { row: BankAccountRow; validationId: string | undefined },
  log: FastifyBaseLogger,
): Promise<BankAccount> {
  if (saved.validationId === undefined) return toBankAccountView(saved.row, false);
  await checkSoon(context.database.db, payeeCheckConfig(context.config), saved.validationId, log);
  const { db } = context.database;
  const row = (await bankAccountRepository.findOwned(db, userId, saved.row.id)) ?? saved.row;
  return toBankAccountView(row, await bankAccountRepository.hasPendingWithdrawalFor(db, row.id));
}

export async function updateBankAccount(
  context: AppContext,
  log: FastifyBaseLogger,
  userId: string,
  id: string,
  input: z.output<typeof bankAccountUpdateSchema>,
): Promise<BankAccount> {
  // The confirmation was checked by the schema; the bank (dataset) and branch (IFSC API) come with a new IFSC.
  const { accountNumberConfirmation: _confirmation, ...fields } = input;
  const changes: Parameters<typeof bankAccountRepository.update>[3] = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
  if (input.ifscCode !== undefined) Object.assign(changes, await knownIfsc(context, log, input.ifscCode));
  const providerConfig = payeeCheckConfig(context.config);
  const bankAccount = await context.database.db.transaction(async (transaction) => {
    // The owner lock serialises this with additions, so two requests cannot make the same account twice.
    await bankAccountRepository.lockOwner(transaction, userId);
    await assertAccountNotFrozen(transaction, userId);
    const existing = await bankAccountRepository.findOwned(transaction, userId, id);
    if (!existing) throw AppError.notFound(BANK_ACCOUNT_MESSAGES.notFound);
    await refuseDuplicate(transaction, userId, input.accountNumber ?? existing.accountNumber, input.ifscCode ?? existing.ifscCode, id);
    // A change of what the bank checked (number, IFSC, holder) checks it again; an earlier check, acceptance or rejection no longer holds.
    const checked = { accountNumber: existing.accountNumber, ifscCode: existing.ifscCode, accountHolderName: existing.accountHolderName, ...changes };
    // The UPI id is validated too (decisions 054, 068), so a change of it checks the payee again as well.
    const upiIdChecked = validatesUpiIds(providerConfig) && input.upiId !== undefined && input.upiId !== existing.upiId;
    let validationId: string | undefined;
    if (
      checked.accountNumber !== existing.accountNumber ||
      checked.ifscCode !== existing.ifscCode ||
      checked.accountHolderName !== existing.accountHolderName ||
      upiIdChecked
    ) {
      validationId = providerConfig ? await queueValidation(transaction, { userId, bankAccountId: id, ...checked }) : undefined;
      Object.assign(changes, {
        payeeCheck: validationId ? 'checking' : 'unchecked',
        validationId: validationId ?? null,
        acceptedBy: null,
        acceptedAt: null,
        rejectedBy: null,
        rejectedAt: null,
        rejectionReason: null,
      });
    }
    const row = await bankAccountRepository.update(transaction, userId, id, changes);
    if (!row) throw AppError.notFound(BANK_ACCOUNT_MESSAGES.notFound);
    return { row, validationId, changed: changedPayeeFields(existing, row) };
  });
  await notifySecurityChange(context, userId, 'bank-account-changed', log, bankAccount.changed);
  return checkedView(context, userId, bankAccount, log);
}

/**
 * The dataset's bank of an IFSC and, when the IFSC API knows it, its branch (null otherwise); an unknown code is
 * refused at its field (400) by the offline dataset, before the network and before anything changes.
 */
async function knownIfsc(context: AppContext, log: FastifyBaseLogger, ifscCode: string): Promise<{ bankName: string; branchName: string | null }> {
  const entry = lookUpIfsc(ifscCode);
  if (!entry) throw AppError.validation(BANK_ACCOUNT_MESSAGES.unknownIfsc, { ifscCode: BANK_ACCOUNT_MESSAGES.unknownIfsc });
  return { bankName: entry.bankName, branchName: await branchOfIfsc(context.database.db, context.config.ifscApiUrl, entry.ifscCode, log) };
}

/** GET /api/bank-accounts/ifsc/:ifscCode: 404 with the field message for a code the dataset does not know; the branch when known. */
export async function findIfsc(context: AppContext, log: FastifyBaseLogger, ifscCode: string): Promise<IfscLookup> {
  const entry = lookUpIfsc(ifscCode);
  if (!entry) throw new AppError(404, 'NOT_FOUND', BANK_ACCOUNT_MESSAGES.unknownIfsc, { fields: { ifscCode: BANK_ACCOUNT_MESSAGES.unknownIfsc } });
  return { ...entry, branchName: await branchOfIfsc(context.database.db, context.config.ifscApiUrl, entry.ifscCode, log) };
}

const NONE = '(none)';

/** The last four digits only, as the app shows account numbers. */
function maskAccountNumber(accountNumber: string): string {
  return `••••${lastFourDigits(accountNumber)}`;
}

/** The first two characters of the name before @ and the whole handle: enough to recognise, not to reuse. */
function maskUpiId(upiId: string | null): string {
  if (upiId === null) return NONE;
  const [name = '', handle = ''] = upiId.split('@');
  return `${name.slice(0, 2)}•••@${handle}`;
}

/** Each word's first letter: "Asha Rao" reads "A••• R•••". */
function maskHolderName(name: string): string {
  return name
    .split(/\s+/)
    .filter((word) => word !== '')
    .map((word) => `${[...word][0] ?? ''}•••`)
    .join(' ');
}

/** The fields that decide where money goes that changed, old and new masked, for the owner's e-mail (decision 038). */
function changedPayeeFields(before: BankAccountRow, after: BankAccountRow): SecurityChangeDetail[] {
  const lines: SecurityChangeDetail[] = [];
  const line = (field: SecurityChangeDetail['field'], from: string, to: string) => lines.push({ field, from, to });
  if (before.accountNumber !== after.accountNumber) line('accountNumber', maskAccountNumber(before.accountNumber), maskAccountNumber(after.accountNumber));
  if (before.ifscCode !== after.ifscCode) line('ifsc', before.ifscCode, after.ifscCode);
  if (before.upiId !== after.upiId) line('upiId', maskUpiId(before.upiId), maskUpiId(after.upiId));
  if (before.accountHolderName !== after.accountHolderName)
    line('accountHolder', maskHolderName(before.accountHolderName), maskHolderName(after.accountHolderName));
  return lines;
}

/** One customer cannot save the same bank account (number and IFSC) twice: a second copy only confuses payouts. */
async function refuseDuplicate(db: Executor, userId: string, accountNumber: string, ifscCode: string, exceptId?: string): Promise<void> {
  if (await bankAccountRepository.findDuplicate(db, userId, accountNumber, ifscCode, exceptId)) {
    throw new AppError(409, 'CONFLICT', BANK_ACCOUNT_MESSAGES.duplicate, { fields: { accountNumber: BANK_ACCOUNT_MESSAGES.duplicate } });
  }
}

/**
 * Deletes the customer's account unless a withdrawal to it is pending. The row
 * lock makes a concurrent withdrawal request either finish first (and then
 * this refuses) or find the account gone.
 */
export async function deleteBankAccount(db: Database, userId: string, id: string): Promise<void> {
  await db.transaction(async (transaction) => {
    const account = await bankAccountRepository.findOwned(transaction, userId, id, 'update');
    if (!account) throw AppError.notFound(BANK_ACCOUNT_MESSAGES.notFound);
    await assertAccountNotFrozen(transaction, userId);
    if (await bankAccountRepository.hasPendingWithdrawalFor(transaction, id)) throw AppError.conflict(BANK_ACCOUNT_MESSAGES.hasPendingWithdrawal);
    await bankAccountRepository.remove(transaction, userId, id);
  });
}
