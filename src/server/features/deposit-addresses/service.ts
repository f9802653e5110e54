import { DEPOSIT_ADDRESS_MESSAGES, type DepositAddressAnswer } from '#shared/contracts/deposit-addresses';
import type { DepositNetwork } from '#shared/contracts/enums';
import type { Database } from '../../db/client.ts';
import type { AppConfig } from '../../env.ts';
import { AppError } from '../../errors.ts';
import { MAX_ADDRESS_INDEX, deriveDepositAddress } from './derivation.ts';
import * as depositAddressRepository from './repository.ts';
import type { DepositAddressRow } from './repository.ts';

function toAnswer(row: DepositAddressRow): DepositAddressAnswer {
  return { network: row.network, address: row.address, index: row.addressIndex };
}


/**
 * The customer's own deposit address on the network, derived and stored on first need (decision 035).
 * Allocation takes a lock per key, so concurrent first requests of one customer get one address and two
 * customers never share an index; an index is never handed out twice because rows are never deleted.
 */
export async function ownDepositAddress(db: Database, keys: AppConfig['depositExtendedPublicKeys'], userId: string, network: DepositNetwork): Promise<DepositAddressAnswer> {
  const extendedPublicKey = keys[network];
  if (extendedPublicKey === undefined) throw new AppError(404, 'DEPOSIT_ADDRESS_NOT_CONFIGURED', DEPOSIT_ADDRESS_MESSAGES.notConfigured);
  const existing = await depositAddressRepository.findForUser(db, network, extendedPublicKey, userId);
  if (existing) return toAnswer(existing);
  return db.transaction(async (transaction) => {
    await depositAddressRepository.lockAllocation(transaction, network, extendedPublicKey);
    const assignedMeanwhile = await depositAddressRepository.findForUser(transaction, network, extendedPublicKey, userId);
    if (assignedMeanwhile) return toAnswer(assignedMeanwhile);
    const addressIndex = await depositAddressRepository.nextIndex(transaction, network, extendedPublicKey);
    if (addressIndex > MAX_ADDRESS_INDEX) throw new Error(`every non-hardened index under the ${network} deposit key is taken`);
    const address = deriveDepositAddress(network, extendedPublicKey, addressIndex);
    return toAnswer(await depositAddressRepository.insert(transaction, { network, addressIndex, userId, extendedPublicKey, address }));
  });
}
