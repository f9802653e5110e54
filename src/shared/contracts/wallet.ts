import { z } from 'zod';
import { decimalStringSchema } from './common.ts';
import { rateTierSchema } from './enums.ts';

/** Everything the Profile, Wallet, Deposit and Withdraw pages show about the customer's money. */
export const walletSummarySchema = z.object({
  balanceUsdt: decimalStringSchema,
  /** The balance in INR at the stored normal rate. */
  balanceInrEstimate: decimalStringSchema,
  pendingDepositsUsdt: decimalStringSchema,
  pendingWithdrawalsUsdt: decimalStringSchema,
  pendingWithdrawalsInr: decimalStringSchema,
  pendingTransfersOutUsdt: decimalStringSchema,
  rates: z.object({ normalInr: decimalStringSchema, vipInr: decimalStringSchema }),
  /** The tier the customer's level gives; any withdrawal of 1 Lakh or more at the normal rate gets VIP anyway. */
  rateTier: rateTierSchema,
  vipThresholdInr: decimalStringSchema,
  minDepositUsdt: decimalStringSchema,
  minWithdrawalUsdt: decimalStringSchema,
  depositAddresses: z.object({ TRC20: z.string(), ERC20: z.string() }),
});
export type WalletSummary = z.infer<typeof walletSummarySchema>;
