import type { Executor } from '../../db/client.ts';
import { MAX_USDT_MICROS } from '#shared/money';
import { depositableTransfers } from './assessment.ts';
import { ChainProviderError, type AddressScanner, type ChainClient, type ChainObservation, type TransferLog } from './observation.ts';
import * as chainRepository from './repository.ts';
import { publishDepositChange, type ChainWorkContext } from './work-context.ts';

/**
 * Records a detected deposit for each given Transfer log to the shared address
 * whose sender is a wallet some customer proved, bound to that log and verified
 * like any other before it is credited (decision 013). Inside the caller's
 * transaction, which holds the transaction's lock.
 */
export async function recordDetectedTransfers(transaction: Executor, client: ChainClient, transactionHash: string, depositAddress: string, transfers: TransferLog[]): Promise<void> {
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
}

/**
 * Detection for a network without a follower (TronGrid's transfer list of the
 * shared address, decision 012): each transaction with a transfer from a
 * proved wallet is read in full (its receipt) and recorded as above.
 */
export async function scanSharedAddress(context: ChainWorkContext, client: ChainClient, scanner: AddressScanner, depositAddress: string, minimumUsdtMicros: bigint): Promise<void> {
  const { db } = context;
  const cursor = await chainRepository.findScanCursor(db, client.network, depositAddress);
  if (cursor === undefined) {
    await chainRepository.saveScanCursor(db, client.network, depositAddress, await scanner.scanStart());
    return;
  }
  const result = await scanner.scanTransfersTo(depositAddress, cursor);
  const hashes = new Set<string>();
  for (const transfer of result.transfers) {
    if (transfer.amountUsdtMicros < minimumUsdtMicros || transfer.amountUsdtMicros > MAX_USDT_MICROS || hashes.has(transfer.transactionHash)) continue;
    if ((await chainRepository.walletOwner(db, client.network, client.addressKey(transfer.from))) !== undefined) hashes.add(transfer.transactionHash);
  }
  // Read before the database transaction, which must not wait on the provider; a provider error leaves the cursor where it was.
  const observations = new Map<string, ChainObservation>();
  for (const hash of hashes) {
    const observation = await client.observe(hash);
    if (observation.kind !== 'included') throw new ChainProviderError(`the provider listed transaction ${hash} but does not return it`);
    observations.set(hash, observation);
  }
  await db.transaction(async (transaction) => {
    for (const [hash, observation] of observations) {
      await recordSharedAddressTransaction(transaction, client, hash, observation, { address: depositAddress, minimumUsdtMicros });
    }
    await chainRepository.saveScanCursor(transaction, client.network, depositAddress, result.scannedThrough);
  });
}
