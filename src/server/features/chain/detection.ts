import type { Executor } from '../../db/client.ts';
import { recordUnclaimedTransfers } from '../deposits/service.ts';
import { depositableTransfers } from './assessment.ts';
import type { ChainClient, ChainObservation, TransferLog } from './observation.ts';
import * as chainRepository from './repository.ts';
import { publishDepositChange } from './work-context.ts';

/**
 * Records a detected deposit for each given Transfer log to the shared address
 * whose sender is a wallet some customer proved, bound to that log and verified
 * like any other before it is credited (decision 013). Inside the caller's
 * transaction, which holds the transaction's lock.
 */
export async function recordDetectedTransfers(
  transaction: Executor,
  client: ChainClient,
  transactionHash: string,
  depositAddress: string,
  transfers: TransferLog[],
): Promise<void> {
  for (const transfer of transfers) {
    const owner = await chainRepository.walletOwner(transaction, client.network, transfer.from);
    if (owner === undefined) continue;
    const depositId = await chainRepository.insertDetectedDeposit(transaction, {
      userId: owner,
      network: client.network,
      amountUsdtMicros: transfer.amountUsdtMicros,
      transactionHash,
      depositAddress,
      logIndex: transfer.logIndex,
    });
    if (depositId === undefined) continue;
    await chainRepository.enqueueDepositCheck(transaction, depositId, client.network);
    await publishDepositChange(transaction, owner, 'deposit.detected');
  }
}

/**
 * The transfers of one final transaction to the shared address: each from a
 * proved wallet, not taken by another deposit, becomes a detected deposit. A
 * transaction with a submitted deposit that has yet to choose its log is left
 * to that deposit, which records the others once bound (see verification.ts).
 */
export async function recordSharedAddressTransaction(
  transaction: Executor,
  client: ChainClient,
  transactionHash: string,
  observation: ChainObservation,
  shared: { address: string; minimumUsdtMicros: bigint },
): Promise<void> {
  await chainRepository.lockChainTransaction(transaction, client.network, transactionHash);
  if (await chainRepository.transactionHasUnboundDeposit(transaction, client.network, transactionHash)) return;
  const takenLogIndexes = await chainRepository.boundLogIndexes(transaction, client.network, transactionHash);
  const transfers = depositableTransfers(observation, {
    usdtContractKey: client.usdtContractKey,
    depositAddressKey: client.addressKey(shared.address),
    minimumUsdtMicros: shared.minimumUsdtMicros,
    takenLogIndexes,
  });
  await recordDetectedTransfers(transaction, client, transactionHash, shared.address, transfers);
  // The transfers from wallets nobody proved, in a transaction no claim names, wait for an admin (decision 037).
  if (observation.kind === 'included') await recordUnclaimedTransfers(transaction, client.network, transactionHash, observation.blockNumber, transfers);
}
