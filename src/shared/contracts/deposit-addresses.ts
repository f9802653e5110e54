import { z } from 'zod';
import { depositNetworkSchema } from './enums.ts';

/** Non-hardened BIP-32 child indexes: 0 to 2^31 - 1. */
const MAX_DEPOSIT_ADDRESS_INDEX = 0x7fff_ffff;

export const DEPOSIT_ADDRESS_MESSAGES = {
  /** Answered (404, DEPOSIT_ADDRESS_NOT_CONFIGURED) when the operator gave no extended public key for the network. */
  notConfigured: 'This network has no deposit address of your own. Send to the shared deposit address and submit your transaction hash.',
} as const;

export const depositAddressQuerySchema = z.strictObject({ network: depositNetworkSchema });
export type DepositAddressQuery = z.infer<typeof depositAddressQuerySchema>;

/** The signed-in customer's own deposit address on one network: `.../0/index` below the operator's account key. */
export const depositAddressResponseSchema = z.object({
  network: depositNetworkSchema,
  address: z.string().min(1).max(64),
  index: z.number().int().min(0).max(MAX_DEPOSIT_ADDRESS_INDEX),
});
export type DepositAddressAnswer = z.infer<typeof depositAddressResponseSchema>;
