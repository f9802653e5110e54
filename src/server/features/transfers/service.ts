import type { z } from 'zod';
import { TRANSFER_DECIMALS, TRANSFER_MESSAGES, type AdminTransfer, type Transfer, type transferRequestSchema } from '#shared/contracts/transfers';
import { usdtMicrosToWire } from '#shared/money';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import type { RequestKind } from '../../platform/decisions/decide.ts';
import { transferDecided } from '../notifications/templates.ts';
import { publishEvent } from '../../platform/events/publish.ts';
import { findEarlierAnswer, hashRequest, runOnce, type Answer, type IdempotencyScope } from '../../platform/idempotency/service.ts';
import { validatedUsdtMicros } from '../../platform/ledger/amounts.ts';
import * as users from '../users/service.ts';
import { house, moveMoney, wallet } from '../../platform/ledger/ledger.ts';
import { assertHeldAmountUntouched } from '../chain/incidents.ts';
import { assertApprovalWhileNotFrozen, assertMayTransfer } from '../kyc/service.ts';
import { checkPin } from '../pin/service.ts';
import { assertTransferAllowed } from '../security/cooling-off.ts';
import type { SessionRecord } from '../../platform/sessions/repository.ts';
import { decodeCursor, toPageBy } from '../../platform/pagination/cursor.ts';
import { recoverWrittenOffRewards } from '../referrals/service.ts';
import * as transferRepository from './repository.ts';
import type { TransferRow, TransferWithPartiesRow } from './repository.ts';

/** The wallet summary shows what is pending. */

/** The transfer as `viewerUserId` (its sender or its recipient) sees it. */
export function toTransferView(row: TransferWithPartiesRow, viewerUserId: string): Transfer {
  const sent = row.transfer.senderUserId === viewerUserId;
  const counterparty = sent ? row.recipient : row.sender;
  return {
    id: row.transfer.id,
    direction: sent ? 'sent' : 'received',
    counterparty: { name: counterparty.name, email: counterparty.email },
    amount: usdtMicrosToWire(row.transfer.amountUsdtMicros),
    status: row.transfer.status,
    createdAt: row.transfer.createdAt.toISOString(),
    decidedAt: row.transfer.decidedAt?.toISOString() ?? null,
    rejectionReason: row.transfer.rejectionReason,
  };
}

export function toAdminTransferView(row: TransferWithPartiesRow): AdminTransfer {
  return {
    id: row.transfer.id,
    sender: row.sender,
    recipient: row.recipient,
    amount: usdtMicrosToWire(row.transfer.amountUsdtMicros),
    status: row.transfer.status,
    createdAt: row.transfer.createdAt.toISOString(),
    decidedAt: row.transfer.decidedAt?.toISOString() ?? null,
    rejectionReason: row.transfer.rejectionReason,
  };
}

export type TransferSubmission = z.output<typeof transferRequestSchema>;
type TransferAnswer = { transfer: Transfer; message: string };

/**
 * Sends USDT to another customer by e-mail. The PIN is checked first, so that
 * probing which e-mails have accounts costs PIN attempts. The amount is held
 * at once (wallet -> transfers pending) until an admin approves or rejects.
 */
export async function requestTransfer(
  context: AppContext,
  request: { ip: string },
  session: SessionRecord,
  input: TransferSubmission,
  idempotencyKey?: string,
): Promise<Answer<TransferAnswer>> {
  const { db } = context.database;
  const senderUserId = session.userId;
  const amountUsdtMicros = validatedUsdtMicros(input.amount, TRANSFER_DECIMALS);
  const scope: IdempotencyScope | undefined = idempotencyKey
    ? {
        userId: senderUserId,
        key: idempotencyKey,
        operation: 'transfer.request',
        requestHash: hashRequest({ recipientEmail: input.recipientEmail.toLowerCase(), amountUsdtMicros: amountUsdtMicros.toString() }),
      }
    : undefined;
  // The PIN comes before the replay: a stored answer is given only to someone who knows the PIN.
  await checkPin(context, request, session, input.pin, () => TRANSFER_MESSAGES.incorrectPin);
  const earlier = await findEarlierAnswer<TransferAnswer>(db, scope);
  if (earlier) return earlier;
  const recipient = await users.findCredentialsByEmail(db, input.recipientEmail);
  if (!recipient) throw AppError.fieldError('recipientEmail', TRANSFER_MESSAGES.unknownRecipient);
  const recipientUserId = recipient.id;
  if (recipientUserId === senderUserId) throw AppError.fieldError('recipientEmail', TRANSFER_MESSAGES.toSelf);

  return runOnce(db, scope, async (transaction) => {
    // A closed account (decision 060) takes no money: it is answered as an unknown e-mail, as to a stranger it is. The
    // share lock is held until the transfer commits, so the recipient cannot close in between and leave it pending.
    if (!(await users.lockOpenAccount(transaction, recipientUserId))) throw AppError.fieldError('recipientEmail', TRANSFER_MESSAGES.unknownRecipient);
    await assertTransferAllowed(transaction, context, senderUserId);
    // The KYC money gate (decision 042): below level 1 nothing leaves the account.
    await assertMayTransfer(transaction, senderUserId);
    const row = await transferRepository.insert(transaction, { senderUserId, recipientUserId, amountUsdtMicros });
    await moveMoney(transaction, [
      { from: wallet(senderUserId), to: house('transfers_pending'), amountUsdtMicros, reason: 'transfer_hold', referenceId: row.id },
    ]);
    // A deposit whose transfer vanished from the chain holds its amount (decision 045), as for withdrawals.
    await assertHeldAmountUntouched(transaction, senderUserId, 'transfer');
    await publishEvent(transaction, { type: 'wallet.updated', userId: senderUserId, reason: 'transfer.requested' });
    await publishEvent(transaction, { type: 'wallet.updated', userId: recipientUserId, reason: 'transfer.requested' });
    await publishEvent(transaction, { type: 'admin.queue.updated' });
    const view = await transferRepository.findWithParties(transaction, row.id);
    if (!view) throw new Error(`transfer ${row.id} vanished inside its own transaction`);
    return { statusCode: 201, body: { transfer: toTransferView(view, senderUserId), message: TRANSFER_MESSAGES.submitted } };
  });
}

export async function getOwnTransfer(db: Database, userId: string, transferId: string): Promise<Transfer> {
  const row = await transferRepository.findWithPartiesForUser(db, userId, transferId);
  if (!row) throw AppError.notFound(TRANSFER_MESSAGES.notFound);
  return toTransferView(row, userId);
}

type TransferDecisionDetails = { reason?: string | undefined };

/**
 * Transfers as a request kind of the decision flow: approving releases the
 * held USDT to the recipient, rejecting returns it to the sender. Neither the
 * sender nor the recipient may decide it.
 */
export const transferDecisions: RequestKind<TransferRow, TransferDecisionDetails, { transfer: AdminTransfer; message: string }> = {
  noun: 'transfer',
  messages: { notFound: TRANSFER_MESSAGES.notFound, ownRequest: TRANSFER_MESSAGES.ownRequest },
  findById: transferRepository.findById,
  partiesOf: (transfer) => [transfer.senderUserId, transfer.recipientUserId],
  markDecided: (db, id, decision) =>
    transferRepository.decidePending(db, id, {
      status: decision.outcome,
      decidedByUserId: decision.decidedByUserId,
      rejectionReason: decision.outcome === 'rejected' ? decision.details.reason : undefined,
    }),
  settle: async (db, row, outcome) => {
    const approved = outcome === 'approved';
    // A frozen sender's transfer is not released to the recipient (decision 047); rejecting refunds it.
    if (approved) await assertApprovalWhileNotFrozen(db, row.senderUserId);
    const parties = await transferRepository.findWithParties(db, row.id);
    if (!parties) throw new Error(`transfer ${row.id} vanished inside its own transaction`);
    // A refund first repays what a referral reward's write-off counted as spent (decision 045).
    const recovered = approved
      ? []
      : await recoverWrittenOffRewards(db, { userId: row.senderUserId, amountUsdtMicros: row.amountUsdtMicros, heldAt: row.createdAt });
    return {
      movements: [
        {
          from: house('transfers_pending'),
          to: wallet(approved ? row.recipientUserId : row.senderUserId),
          amountUsdtMicros: row.amountUsdtMicros,
          reason: approved ? 'transfer_credit' : 'transfer_refund',
          referenceId: row.id,
        },
        ...recovered,
      ],
      targetUserId: row.senderUserId,
      auditAfter: { status: row.status, amountUsdtMicros: row.amountUsdtMicros, recipientUserId: row.recipientUserId, reason: row.rejectionReason },
      events: [
        { type: 'wallet.updated', userId: row.senderUserId, reason: `transfer.${row.status}` },
        { type: 'wallet.updated', userId: row.recipientUserId, reason: `transfer.${row.status}` },
      ],
      notifications: transferDecided({ ...row, sender: parties.sender, recipient: parties.recipient, outcome }),
    };
  },
  answer: async (db, row, outcome) => {
    const view = await transferRepository.findWithParties(db, row.id);
    if (!view) throw new Error(`transfer ${row.id} vanished inside its own transaction`);
    return { transfer: toAdminTransferView(view), message: outcome === 'approved' ? TRANSFER_MESSAGES.approved : TRANSFER_MESSAGES.rejected };
  },
};

export async function listTransfersForAdmin(
  db: Database,
  options: { status?: 'pending' | 'approved' | 'rejected' | undefined; cursor?: string | undefined; limit: number },
): Promise<{ items: AdminTransfer[]; nextCursor: string | null }> {
  const rows = await transferRepository.listWithParties(db, { status: options.status, cursor: decodeCursor(options.cursor), limit: options.limit });
  const page = toPageBy(rows, options.limit, (row) => ({ createdAt: row.cursorCreatedAt, id: row.transfer.id }));
  return { items: page.rows.map(toAdminTransferView), nextCursor: page.nextCursor };
}
