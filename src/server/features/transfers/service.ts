import type { z } from 'zod';
import { TRANSFER_DECIMALS, TRANSFER_MESSAGES, type AdminTransfer, type Transfer, type transferRequestSchema } from '../../../shared/contracts/transfers.ts';
import { usdtMicrosToWire } from '../../../shared/money.ts';
import type { AppContext } from '../../context.ts';
import type { Database, Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../../platform/audit/record.ts';
import { publishEvent } from '../../platform/events/publish.ts';
import { findEarlierAnswer, hashRequest, runOnce, type Answer, type IdempotencyScope } from '../../platform/idempotency/service.ts';
import { validatedUsdtMicros } from '../../platform/ledger/amounts.ts';
import * as userRepository from '../users/repository.ts';
import { house, moveMoney, wallet } from '../../platform/ledger/ledger.ts';
import { checkPin } from '../pin/service.ts';
import type { SessionRecord } from '../../platform/sessions/repository.ts';
import { decodeCursor, toPage } from '../../platform/pagination/cursor.ts';
import * as transferRepository from './repository.ts';
import type { TransferWithPartiesRow } from './repository.ts';

export interface AdminDecision {
  adminUserId: string;
  ipAddress?: string | undefined;
}

/** The transfer as `viewerUserId` (its sender or its recipient) sees it. */
export function toTransferView(row: TransferWithPartiesRow, viewerUserId: string): Transfer {
  const sent = row.transfer.senderUserId === viewerUserId;
  const counterparty = sent ? row.recipient : row.sender;
  return {
    id: row.transfer.id,
    direction: sent ? 'sent' : 'received',
    counterparty: { name: counterparty.name, email: counterparty.email },
    amount: usdtMicrosToWire(row.transfer.amountUsdtMicros),
    status: row.transfer.status as Transfer['status'],
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
    status: row.transfer.status as AdminTransfer['status'],
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
  const earlier = await findEarlierAnswer<TransferAnswer>(db, scope);
  if (earlier) return earlier;

  await checkPin(context, request, session, input.pin, () => TRANSFER_MESSAGES.incorrectPin);
  const recipientUserId = (await userRepository.findCredentialsByEmail(db, input.recipientEmail))?.id;
  if (!recipientUserId) throw AppError.fieldError('recipientEmail', TRANSFER_MESSAGES.unknownRecipient);
  if (recipientUserId === senderUserId) throw AppError.fieldError('recipientEmail', TRANSFER_MESSAGES.toSelf);

  return runOnce(db, scope, async (transaction) => {
    const row = await transferRepository.insert(transaction, { senderUserId, recipientUserId, amountUsdtMicros });
    await moveMoney(transaction, [{ from: wallet(senderUserId), to: house('transfers_pending'), amountUsdtMicros, reason: 'transfer_hold', referenceId: row.id }]);
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

/** Four eyes: a transfer an admin sent or receives is decided by another admin. */
async function refuseOwnRequest(db: Executor, transferId: string, adminUserId: string): Promise<void> {
  const existing = await transferRepository.findById(db, transferId);
  if (!existing) throw AppError.notFound(TRANSFER_MESSAGES.notFound);
  if (existing.senderUserId === adminUserId || existing.recipientUserId === adminUserId) throw AppError.forbidden(TRANSFER_MESSAGES.ownRequest);
}

async function refuseDecided(db: Executor, transferId: string): Promise<never> {
  const existing = await transferRepository.findById(db, transferId);
  if (!existing) throw AppError.notFound(TRANSFER_MESSAGES.notFound);
  throw AppError.conflict(`This transfer has already been ${existing.status}.`, 'ALREADY_DECIDED');
}

async function adminView(db: Executor, transferId: string): Promise<AdminTransfer> {
  const row = await transferRepository.findWithParties(db, transferId);
  if (!row) throw new Error(`transfer ${transferId} vanished inside its own transaction`);
  return toAdminTransferView(row);
}

async function decide(db: Database, transferId: string, decision: AdminDecision & { status: 'approved' | 'rejected'; reason?: string | undefined }): Promise<AdminTransfer> {
  return db.transaction(async (transaction) => {
    await refuseOwnRequest(transaction, transferId, decision.adminUserId);
    const row = await transferRepository.decidePending(transaction, transferId, {
      status: decision.status,
      decidedByUserId: decision.adminUserId,
      rejectionReason: decision.status === 'rejected' ? decision.reason : undefined,
    });
    if (!row) return refuseDecided(transaction, transferId);
    const approved = decision.status === 'approved';
    await moveMoney(transaction, [
      {
        from: house('transfers_pending'),
        to: wallet(approved ? row.recipientUserId : row.senderUserId),
        amountUsdtMicros: row.amountUsdtMicros,
        reason: approved ? 'transfer_credit' : 'transfer_refund',
        referenceId: row.id,
      },
    ]);
    await recordAudit(transaction, {
      actorUserId: decision.adminUserId,
      action: approved ? 'transfer.approve' : 'transfer.reject',
      targetType: 'transfer',
      targetId: row.id,
      targetUserId: row.senderUserId,
      before: { status: 'pending' },
      after: { status: row.status, amountUsdtMicros: row.amountUsdtMicros, recipientUserId: row.recipientUserId, reason: row.rejectionReason },
      ipAddress: decision.ipAddress,
    });
    await publishEvent(transaction, { type: 'wallet.updated', userId: row.senderUserId, reason: `transfer.${row.status}` });
    await publishEvent(transaction, { type: 'wallet.updated', userId: row.recipientUserId, reason: `transfer.${row.status}` });
    await publishEvent(transaction, { type: 'admin.queue.updated' });
    return adminView(transaction, row.id);
  });
}

/** Releases the held USDT to the recipient. */
export async function approveTransfer(db: Database, transferId: string, decision: AdminDecision): Promise<AdminTransfer> {
  return decide(db, transferId, { ...decision, status: 'approved' });
}

/** Returns the held USDT to the sender. */
export async function rejectTransfer(db: Database, transferId: string, decision: AdminDecision & { reason?: string | undefined }): Promise<AdminTransfer> {
  return decide(db, transferId, { ...decision, status: 'rejected' });
}

export async function listTransfersForAdmin(
  db: Database,
  options: { status?: 'pending' | 'approved' | 'rejected' | undefined; cursor?: string | undefined; limit: number },
): Promise<{ items: AdminTransfer[]; nextCursor: string | null }> {
  const rows = await transferRepository.listWithParties(db, { status: options.status, cursor: decodeCursor(options.cursor), limit: options.limit });
  const page = toPage(
    rows.map((row) => ({ ...row, id: row.transfer.id })),
    options.limit,
  );
  return { items: page.rows.map(toAdminTransferView), nextCursor: page.nextCursor };
}
