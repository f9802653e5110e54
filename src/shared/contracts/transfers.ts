import { z } from 'zod';
import { emailSchema } from './auth.ts';
import { decimalStringSchema, uuidSchema } from './common.ts';
import { rejectRequestSchema, requestStatusSchema, statusListQuerySchema, transactionPinSchema, usdtAmountSchema, userSummarySchema } from './money-common.ts';

export const TRANSFER_MESSAGES = {
  invalidAmount: 'Please enter a valid amount',
  insufficientBalance: 'Insufficient balance',
  unknownRecipient: 'No account was found for this email.',
  toSelf: 'You cannot transfer USDT to yourself.',
  incorrectPin: 'Incorrect PIN. Please try again.',
  notFound: 'Transfer not found',
  ownRequest: 'You cannot approve or reject a transfer you sent or receive. Another admin must decide it.',
  submitted: 'Transfer request submitted successfully',
  approved: 'Transfer approved successfully',
  rejected: 'Transfer rejected and funds returned to sender',
} as const;

/**
 * Transfers, like withdrawals, move whole cents of USDT: an amount the customer
 * sees with 2 decimals is exactly the amount that moves, and no dust is left behind.
 */
export const TRANSFER_DECIMALS = 2;

export const transferAmountSchema = usdtAmountSchema({ decimals: TRANSFER_DECIMALS, invalidMessage: TRANSFER_MESSAGES.invalidAmount });

export const transferRequestSchema = z.object({
  recipientEmail: emailSchema,
  amount: transferAmountSchema,
  pin: transactionPinSchema,
});
export type TransferRequest = z.input<typeof transferRequestSchema>;

export const transferDirectionSchema = z.enum(['sent', 'received']);

/** A transfer as one of its two parties sees it. */
export const transferSchema = z.object({
  id: uuidSchema,
  direction: transferDirectionSchema,
  counterparty: z.object({ name: z.string(), email: z.string() }),
  amount: decimalStringSchema,
  status: requestStatusSchema,
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
  rejectionReason: z.string().nullable(),
});
export type Transfer = z.infer<typeof transferSchema>;

export const transferResponseSchema = z.object({ transfer: transferSchema, message: z.string() });
export const transferDetailResponseSchema = z.object({ transfer: transferSchema });

export const adminTransferSchema = z.object({
  id: uuidSchema,
  sender: userSummarySchema,
  recipient: userSummarySchema,
  amount: decimalStringSchema,
  status: requestStatusSchema,
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
  rejectionReason: z.string().nullable(),
});
export type AdminTransfer = z.infer<typeof adminTransferSchema>;
export const adminTransferListQuerySchema = statusListQuerySchema;
export const adminTransferListResponseSchema = z.object({ items: z.array(adminTransferSchema), nextCursor: z.string().nullable() });
export const adminTransferDecisionResponseSchema = z.object({ transfer: adminTransferSchema, message: z.string() });
export const rejectTransferRequestSchema = rejectRequestSchema;
