import { DEPOSIT_ADDRESS_MESSAGES, type DepositAddressAnswer } from '#shared/contracts/deposit-addresses';
import type { DepositNetwork } from '#shared/contracts/enums';
import type { Database, Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { MAX_ADDRESS_INDEX, deriveDepositAddress } from './derivation.ts';
import { effectiveDepositKey, type EnvironmentKeys } from './keys.ts';
import * as depositAddressRepository from './repository.ts';
import type { DepositAddressRow } from './repository.ts';

function toAnswer(row: DepositAddressRow): DepositAddressAnswer {
  return { network: row.network, address: row.address, index: row.addressIndex };
}

/**
 * The customer's own deposit address on the network, derived and stored on first need (decision 035).
 * Allocation takes a lock per key, so concurrent first requests of one customer get one address and two
 * customers never share an index; an index is never handed out twice because rows are never deleted.
 * An address once given is the customer's for good, under whichever key it was derived (decision 045):
 * a changed key serves only customers who get their first address afterwards.
 */
export async function ownDepositAddress(
  db: Database,
  environmentKeys: EnvironmentKeys,
  userId: string,
  network: DepositNetwork,
): Promise<DepositAddressAnswer> {
  const existing = await depositAddressRepository.findAnyForUser(db, network, userId);
  if (existing) return toAnswer(existing);
  const effective = await effectiveDepositKey(db, environmentKeys, network);
  if (effective === undefined) throw new AppError(404, 'DEPOSIT_ADDRESS_NOT_CONFIGURED', DEPOSIT_ADDRESS_MESSAGES.notConfigured);
  const extendedPublicKey = effective.key;
  return db.transaction(async (transaction) => {
    // Per customer first, so two first requests of one customer under two keys (a key changing meanwhile) still give one address.
    await depositAddressRepository.lockCustomer(transaction, network, userId);
    const assignedMeanwhile = await depositAddressRepository.findAnyForUser(transaction, network, userId);
    if (assignedMeanwhile) return toAnswer(assignedMeanwhile);
    await depositAddressRepository.lockAllocation(transaction, network, extendedPublicKey);
    const addressIndex = await depositAddressRepository.nextIndex(transaction, network, extendedPublicKey);
    if (addressIndex > MAX_ADDRESS_INDEX) throw new Error(`every non-hardened index under the ${network} deposit key is taken`);
    const address = deriveDepositAddress(network, extendedPublicKey, addressIndex);
    return toAnswer(await depositAddressRepository.insert(transaction, { network, addressIndex, userId, extendedPublicKey, address }));
  });
}

/** How many addresses of a network were handed out; the chain follower reads its address list again when this changes. */
export async function issuedAddressCount(db: Executor, network: DepositNetwork): Promise<number> {
  return depositAddressRepository.countIssued(db, network);
}
