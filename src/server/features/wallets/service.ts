import { randomBytes } from 'node:crypto';
import type { DepositNetwork } from '#shared/contracts/enums';
import { PRODUCT_NAME } from '#shared/limits';
import { MAX_WALLETS_PER_USER, WALLET_CHALLENGE_MINUTES, WALLET_MESSAGES, type Wallet } from '#shared/contracts/wallets';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../../platform/audit/record.ts';
import { publishEvent } from '../../platform/events/publish.ts';
import type { MailMessage } from '../../platform/mail/mailer.ts';
import { reopenPendingChecks } from '../chain/service.ts';
import { walletAddedMessage } from '../notifications/account-mail.ts';
import { isValidErc20Address, isValidTronAddress, toChecksumAddress } from '../settings/addresses.ts';
import * as walletRepository from './repository.ts';
import { ethereumSignerOf, normalizeSignature, tronSignerOf } from './signatures.ts';

function toWalletView(row: walletRepository.WalletRow): Wallet {
  return { id: row.id, network: row.network, address: row.address, verifiedAt: row.verifiedAt.toISOString() };
}

/** The address as shown (EIP-55 on Ethereum) and as compared (lower case on Ethereum, base58check as is on TRON). */
function addressForms(network: DepositNetwork, address: string): { address: string; addressKey: string } {
  if (network === 'ERC20') {
    if (!isValidErc20Address(address))
      throw AppError.fieldError('address', 'This ERC20 address has mixed case but its checksum does not match; check it for typos.');
    return { address: toChecksumAddress(address), addressKey: address.toLowerCase() };
  }
  if (!isValidTronAddress(address))
    throw AppError.fieldError('address', 'This TRC20 address is not a valid TRON address (its checksum does not match); check it for typos.');
  return { address, addressKey: address };
}

async function refuseTaken(db: Database, userId: string, network: DepositNetwork, addressKey: string): Promise<void> {
  const existing = await walletRepository.findByAddress(db, network, addressKey);
  if (!existing) return;
  throw AppError.conflict(existing.userId === userId ? WALLET_MESSAGES.alreadyYours : WALLET_MESSAGES.takenByOther);
}

/**
 * The text the customer signs in their wallet app: it names the product, the
 * customer, the address, a random nonce and the expiry, so a signature made
 * for anything else (or for someone else) never verifies here.
 */
export async function createChallenge(
  db: Database,
  userId: string,
  input: { network: DepositNetwork; address: string },
): Promise<{ message: string; expiresAt: string }> {
  const forms = addressForms(input.network, input.address);
  await refuseTaken(db, userId, input.network, forms.addressKey);
  const email = await walletRepository.emailOf(db, userId);
  if (!email) throw AppError.unauthenticated();
  const expiresAt = new Date(Date.now() + WALLET_CHALLENGE_MINUTES * 60_000);
  const message = [
    `${PRODUCT_NAME} wallet verification`,
    '',
    `I, ${email}, control this ${input.network} wallet and want USDT sent from it credited to my ${PRODUCT_NAME} account.`,
    '',
    `Address: ${forms.address}`,
    `Nonce: ${randomBytes(16).toString('hex')}`,
    `Expires: ${expiresAt.toISOString()}`,
  ].join('\n');
  await walletRepository.insertChallenge(db, {
    userId,
    network: input.network,
    addressKey: forms.addressKey,
    message,
    lifetimeMinutes: WALLET_CHALLENGE_MINUTES,
  });
  return { message, expiresAt: expiresAt.toISOString() };
}

/**
 * Adds a wallet once its signature of one of the customer's open challenges
 * recovers to exactly that address (EIP-191 personal_sign on Ethereum, TRON
 * signMessageV2 on TRON). Returns the wallet and the e-mail telling its owner.
 */
export async function addWallet(
  db: Database,
  userId: string,
  input: { network: DepositNetwork; address: string; signature: string },
  ipAddress: string | undefined,
): Promise<{ wallet: Wallet; notice: MailMessage }> {
  const forms = addressForms(input.network, input.address);
  const signature = normalizeSignature(input.signature);
  if (!signature) throw AppError.fieldError('signature', WALLET_MESSAGES.signatureShape);
  const challenges = await walletRepository.openChallenges(db, userId, input.network, forms.addressKey);
  if (challenges.length === 0) throw AppError.fieldError('signature', WALLET_MESSAGES.noChallenge);
  let proved = false;
  for (const challenge of challenges) {
    const signer = input.network === 'ERC20' ? await ethereumSignerOf(challenge.message, signature) : await tronSignerOf(challenge.message, signature);
    if (signer === forms.addressKey) {
      proved = true;
      break;
    }
  }
  if (!proved) throw AppError.fieldError('signature', WALLET_MESSAGES.signatureMismatch);

  const { row, owner } = await db.transaction(async (transaction) => {
    const locked = await walletRepository.lockUser(transaction, userId);
    if (!locked) throw AppError.unauthenticated();
    if ((await walletRepository.countForUser(transaction, userId)) >= MAX_WALLETS_PER_USER) throw AppError.conflict(WALLET_MESSAGES.tooMany);
    const inserted = await walletRepository.insertUnlessTaken(transaction, { userId, network: input.network, ...forms });
    if (!inserted) {
      const existing = await walletRepository.findByAddress(transaction, input.network, forms.addressKey);
      throw AppError.conflict(existing?.userId === userId ? WALLET_MESSAGES.alreadyYours : WALLET_MESSAGES.takenByOther);
    }
    await walletRepository.deleteChallenges(transaction, userId, input.network, forms.addressKey);
    // Deposits already waiting from this wallet may now be credited by themselves.
    await reopenPendingChecks(transaction, userId, input.network);
    await recordAudit(transaction, {
      actorUserId: userId,
      action: 'wallet.add',
      targetType: 'wallet',
      targetId: inserted.id,
      targetUserId: userId,
      after: { network: inserted.network, address: inserted.address },
      ipAddress,
    });
    await publishEvent(transaction, { type: 'wallet.updated', userId, reason: 'wallet.added' });
    return { row: inserted, owner: locked };
  });
  // The profile language picks the e-mail's words (issue 33, decision 055).
  return { wallet: toWalletView(row), notice: walletAddedMessage({ to: owner.email, language: owner.language }, row) };
}

export async function listWallets(db: Database, userId: string): Promise<Wallet[]> {
  return (await walletRepository.listForUser(db, userId)).map(toWalletView);
}

export async function removeWallet(db: Database, userId: string, walletId: string, ipAddress: string | undefined): Promise<void> {
  await db.transaction(async (transaction) => {
    const removed = await walletRepository.deleteOwned(transaction, userId, walletId);
    if (!removed) throw AppError.notFound(WALLET_MESSAGES.notFound);
    await recordAudit(transaction, {
      actorUserId: userId,
      action: 'wallet.remove',
      targetType: 'wallet',
      targetId: removed.id,
      targetUserId: userId,
      before: { network: removed.network, address: removed.address },
      ipAddress,
    });
    await publishEvent(transaction, { type: 'wallet.updated', userId, reason: 'wallet.removed' });
  });
}
