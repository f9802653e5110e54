import { z } from 'zod';
import { depositNetworkSchema, DEPOSIT_NETWORKS, type DepositNetwork } from './enums.ts';
import { pendingChangeSchema } from './pending-changes.ts';

/*
 * The account-level extended public keys customers' own deposit addresses are derived from, as the
 * admin settings show and set them (decisions 035 and 045). The environment's DEPOSIT_XPUB_* wins
 * where it is set; the settings fill a network the environment leaves empty.
 */

/** The BIP-44 account path each network's key must be at, as operators' wallets name it. */
export const DEPOSIT_ACCOUNT_PATHS: Record<DepositNetwork, string> = { ERC20: "m/44'/60'/0'", TRC20: "m/44'/195'/0'" };

/** The environment variable that sets a network's key and wins over the settings. */
export const depositKeyVariable = (network: DepositNetwork) => `DEPOSIT_XPUB_${network}`;

export const DEPOSIT_KEY_MESSAGES = {
  setByEnvironment: (variable: string) => `This key is set in the server's environment (${variable}), which wins over the settings. Change it there.`,
  sameAsOtherNetwork: "This is the other network's key. TRON's account is m/44'/195'/0', Ethereum's m/44'/60'/0'.",
  unchanged: 'This is already the key of this network.',
  alreadyWaiting: (network: string) => `A change of the ${network} key is already waiting for a second admin.`,
  saved: 'Deposit key saved. Customers who get their first address on this network from now on get it under this key; issued addresses never change.',
  requested: 'Deposit key change recorded; a second admin must confirm it before it applies.',
  stale: 'The deposit key changed since this change was asked for. Ask again.',
} as const;

/** An extended public key shown in part: not secret, but the whole of it reveals every customer's address. */
export function extendedKeyInPart(key: string): string {
  return `${key.slice(0, 8)}…${key.slice(-6)}`;
}

/** An extended key is about 111 characters; anything much longer is not one. */
export const DEPOSIT_KEY_MAX_LENGTH = 200;

export const depositKeySourceSchema = z.enum(['environment', 'settings']);

export const depositKeyStatusSchema = z.object({
  network: depositNetworkSchema,
  /** The first and last characters only: an xpub is not secret, but it reveals every customer's address. */
  keyHint: z.string().nullable(),
  source: depositKeySourceSchema.nullable(),
  /** Addresses handed out on the network under any key; they keep their addresses whatever the key becomes. */
  addressesIssued: z.number().int().nonnegative(),
});
export type DepositKeyStatus = z.infer<typeof depositKeyStatusSchema>;

export const depositKeyListResponseSchema = z.object({ items: z.array(depositKeyStatusSchema).max(DEPOSIT_NETWORKS.length) });
export type DepositKeyListResponse = z.infer<typeof depositKeyListResponseSchema>;

export const setDepositKeyRequestSchema = z.strictObject({
  network: depositNetworkSchema,
  extendedPublicKey: z
    .string({ error: 'Paste the extended public key (xpub)' })
    .trim()
    .min(1, 'Paste the extended public key (xpub)')
    .max(DEPOSIT_KEY_MAX_LENGTH, 'This is far longer than an extended public key; give the xpub only'),
});
export type SetDepositKeyRequest = z.infer<typeof setDepositKeyRequestSchema>;

export const setDepositKeyResponseSchema = z.union([
  z.object({ message: z.string(), key: depositKeyStatusSchema }),
  z.object({ message: z.string(), pendingChange: pendingChangeSchema }),
]);
export type SetDepositKeyResponse = z.infer<typeof setDepositKeyResponseSchema>;
