import { z } from 'zod';
import { uuidSchema } from './common.ts';
import { depositNetworkSchema } from './enums.ts';

/** How many wallets one customer may prove; enough for a few exchanges and personal wallets. */
export const MAX_WALLETS_PER_USER = 10;
/** A challenge message is valid this long after it was issued. */
export const WALLET_CHALLENGE_MINUTES = 10;

export const WALLET_MESSAGES = {
  addressRequired: 'Please enter your wallet address',
  erc20Address: 'An ERC20 address is 0x followed by 40 hexadecimal characters.',
  trc20Address: 'A TRC20 address starts with T and is 34 characters long.',
  signatureRequired: 'Please paste the signature from your wallet app',
  signatureShape: 'The signature should be 0x followed by 130 hexadecimal characters, as your wallet app shows it.',
  signatureMismatch: 'This signature was not made by that wallet for the message we asked you to sign. Sign the message again from this address.',
  noChallenge: 'The message to sign has expired or was never requested. Ask for a new message and sign it within 10 minutes.',
  takenByOther: 'This wallet has already been verified by another customer.',
  alreadyYours: 'You have already verified this wallet.',
  tooMany: `You can verify up to ${MAX_WALLETS_PER_USER} wallets. Remove one before adding another.`,
  notFound: 'Wallet not found',
  added: 'Wallet verified',
  removed: 'Wallet removed',
} as const;

const addressSchema = z
  .string({ error: WALLET_MESSAGES.addressRequired })
  .trim()
  .min(1, WALLET_MESSAGES.addressRequired)
  .max(64, WALLET_MESSAGES.addressRequired);

function refineAddress(values: { network: 'TRC20' | 'ERC20'; address: string }, context: z.RefinementCtx): void {
  const ok = values.network === 'ERC20' ? /^0x[0-9a-fA-F]{40}$/.test(values.address) : /^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(values.address);
  if (!ok)
    context.addIssue({ code: 'custom', path: ['address'], message: values.network === 'ERC20' ? WALLET_MESSAGES.erc20Address : WALLET_MESSAGES.trc20Address });
}

export const walletChallengeRequestSchema = z.object({ network: depositNetworkSchema, address: addressSchema }).superRefine(refineAddress);
export type WalletChallengeRequest = z.input<typeof walletChallengeRequestSchema>;
export const walletChallengeResponseSchema = z.object({ message: z.string(), expiresAt: z.string() });

export const addWalletRequestSchema = z
  .object({
    network: depositNetworkSchema,
    address: addressSchema,
    signature: z.string({ error: WALLET_MESSAGES.signatureRequired }).trim().min(1, WALLET_MESSAGES.signatureRequired).max(200, WALLET_MESSAGES.signatureShape),
  })
  .superRefine(refineAddress);
export type AddWalletRequest = z.input<typeof addWalletRequestSchema>;

export const walletSchema = z.object({ id: uuidSchema, network: depositNetworkSchema, address: z.string(), verifiedAt: z.string() });
export type Wallet = z.infer<typeof walletSchema>;
export const addWalletResponseSchema = z.object({ wallet: walletSchema, message: z.string() });
export const walletListResponseSchema = z.object({ items: z.array(walletSchema) });
export const removeWalletResponseSchema = z.object({ message: z.string() });
