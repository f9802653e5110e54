import fc from 'fast-check';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { assessObservation, depositableTransfers } from '../../src/server/features/chain/assessment.ts';
import {
  decodeTransferLogs,
  isKnownTransaction,
  observationFromTransactionInfo,
  transactionInfoSchema,
  transactionSucceeded,
  blockTransactionInfoSchema,
} from '../../src/server/features/chain/tron-decoding.ts';
import { isValidTronAddress, tronAccountIdOf, tronAddressFromAccountId } from '../../src/server/features/settings/addresses.ts';
import { tronSignerOf } from '../../src/server/features/wallets/signatures.ts';
import { MAINNET_USDT_TRC20, transactionInfo, transferLog } from '../fixtures/tron-shapes.ts';

const FROM = tronAddressFromAccountId(Buffer.alloc(20, 1));
const OPERATOR = 'TCFvmqhxFrEdPbnQzKWaGNdXz7X3za7w5r';
const OTHER_TOKEN = tronAddressFromAccountId(Buffer.alloc(20, 7));
const HASH = 'ab'.repeat(32);
const EXPECTATION = {
  usdtContractKey: MAINNET_USDT_TRC20,
  depositAddressKey: OPERATOR,
  minimumUsdtMicros: 10_000_000n,
  boundLogIndex: null,
  takenLogIndexes: new Set<number>(),
  claimantUserId: 'claimant',
  typedAmountUsdtMicros: 20_000_000n,
  senderOwners: new Map<string, string>(),
};

function decoded(info: unknown) {
  const parsed = transactionInfoSchema.parse(info);
  if (!isKnownTransaction(parsed)) throw new Error('expected a known transaction');
  return { succeeded: transactionSucceeded(parsed), transfers: decodeTransferLogs(parsed.log ?? []) };
}

describe('TRON addresses', () => {
  it('turns the USDT contract’s account id into its well-known base58check address', () => {
    expect(tronAddressFromAccountId(Buffer.from('a614f803b6fd780986a42c78ec9c7f77e6ded13c', 'hex'))).toBe(MAINNET_USDT_TRC20);
  });

  it('round-trips any 20-byte account id through base58check', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 20, maxLength: 20 }), (bytes) => {
        const address = tronAddressFromAccountId(bytes);
        expect(isValidTronAddress(address)).toBe(true);
        expect(tronAccountIdOf(address)?.equals(Buffer.from(bytes))).toBe(true);
      }),
    );
  });
});

describe('TRC20 transaction info decoding', () => {
  it('decodes a successful USDT transfer: from, to, amount and log index', () => {
    const result = decoded(transactionInfo({ id: HASH, blockNumber: 100, logs: [transferLog(MAINNET_USDT_TRC20, FROM, OPERATOR, 25_500_000n)] }));
    expect(result).toEqual({
      succeeded: true,
      transfers: [{ logIndex: 0, contract: MAINNET_USDT_TRC20, from: FROM, to: OPERATOR, amountUsdtMicros: 25_500_000n }],
    });
  });

  it('reads FAILED as a failed transaction, which assesses as failed', () => {
    const info = transactionInfo({ id: HASH, blockNumber: 100, failed: true, logs: [transferLog(MAINNET_USDT_TRC20, FROM, OPERATOR, 25_000_000n)] });
    const result = decoded(info);
    expect(result.succeeded).toBe(false);
    const facts = assessObservation(
      {
        kind: 'included',
        succeeded: result.succeeded,
        blockNumber: 100n,
        confirmations: 20,
        requiredConfirmations: 19,
        final: true,
        transfers: result.transfers,
      },
      EXPECTATION,
    );
    expect(facts.state).toBe('failed');
  });

  it('reads the empty object as an unknown transaction', () => {
    expect(isKnownTransaction(transactionInfoSchema.parse({}))).toBe(false);
    expect(transactionInfoSchema.safeParse({ unexpected: true }).success).toBe(false);
  });

  it('decodes two Transfer logs in order and skips logs that are not transfers', () => {
    const approval = {
      ...transferLog(MAINNET_USDT_TRC20, FROM, OPERATOR, 1n),
      topics: ['8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925', '0'.repeat(64), '0'.repeat(64)],
    };
    const twoTopics = {
      ...transferLog(MAINNET_USDT_TRC20, FROM, OPERATOR, 1n),
      topics: transferLog(MAINNET_USDT_TRC20, FROM, OPERATOR, 1n).topics.slice(0, 2),
    };
    const result = decoded(
      transactionInfo({
        id: HASH,
        blockNumber: 100,
        logs: [transferLog(MAINNET_USDT_TRC20, FROM, FROM, 5n), approval, twoTopics, transferLog(MAINNET_USDT_TRC20, FROM, OPERATOR, 12_000_000n)],
      }),
    );
    expect(result.transfers.map((transfer) => [transfer.logIndex, transfer.to, transfer.amountUsdtMicros])).toEqual([
      [0, FROM, 5n],
      [3, OPERATOR, 12_000_000n],
    ]);
    const facts = assessObservation(
      { kind: 'included', succeeded: true, blockNumber: 100n, confirmations: 19, requiredConfirmations: 19, final: true, transfers: result.transfers },
      EXPECTATION,
    );
    expect(facts).toMatchObject({ state: 'confirmed', transfer: { logIndex: 3, amountUsdtMicros: 12_000_000n } });
  });

  it('tells a transfer of another token (wrong contract) from a USDT transfer', () => {
    const result = decoded(transactionInfo({ id: HASH, blockNumber: 100, logs: [transferLog(OTHER_TOKEN, FROM, OPERATOR, 50_000_000n)] }));
    expect(result.transfers[0]?.contract).toBe(OTHER_TOKEN);
    const facts = assessObservation(
      { kind: 'included', succeeded: true, blockNumber: 100n, confirmations: 19, requiredConfirmations: 19, final: true, transfers: result.transfers },
      EXPECTATION,
    );
    expect(facts).toMatchObject({ state: 'mismatch', problem: 'wrong_token' });
  });

  it('seen but not final assesses as confirming, never confirmed', () => {
    const result = decoded(transactionInfo({ id: HASH, blockNumber: 100, logs: [transferLog(MAINNET_USDT_TRC20, FROM, OPERATOR, 50_000_000n)] }));
    const facts = assessObservation(
      { kind: 'included', succeeded: true, blockNumber: 100n, confirmations: 5, requiredConfirmations: 19, final: false, transfers: result.transfers },
      EXPECTATION,
    );
    expect(facts).toMatchObject({ state: 'confirming', confirmations: 5, requiredConfirmations: 19 });
  });

  it('decodes any amount and any pair of addresses exactly', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }),
        fc.uint8Array({ minLength: 20, maxLength: 20 }),
        fc.uint8Array({ minLength: 20, maxLength: 20 }),
        (amount, fromBytes, toBytes) => {
          const from = tronAddressFromAccountId(fromBytes);
          const to = tronAddressFromAccountId(toBytes);
          const [transfer] = decoded(transactionInfo({ id: HASH, blockNumber: 1, logs: [transferLog(MAINNET_USDT_TRC20, from, to, amount)] })).transfers;
          expect(transfer).toEqual({ logIndex: 0, contract: MAINNET_USDT_TRC20, from, to, amountUsdtMicros: amount });
        },
      ),
    );
  });
});

describe('seen, not final: the full node has it, the solidity node answers {}', () => {
  const seen = transactionInfoSchema.parse(
    transactionInfo({ id: HASH, blockNumber: 100, logs: [transferLog(MAINNET_USDT_TRC20, FROM, OPERATOR, 30_000_000n)] }),
  );
  const unknown = transactionInfoSchema.parse({});

  it('is included but not final, with confirmations counted from the newest block, and assesses as confirming (n of 19)', () => {
    const observation = observationFromTransactionInfo(unknown, seen, 105);
    expect(observation).toMatchObject({ kind: 'included', final: false, confirmations: 6, requiredConfirmations: 19, blockNumber: 100n });
    expect(assessObservation(observation, EXPECTATION)).toMatchObject({
      state: 'confirming',
      confirmations: 6,
      requiredConfirmations: 19,
      transfer: { amountUsdtMicros: 30_000_000n },
    });
  });

  it('shows 0 of 19 while the newest block known lags behind the transaction’s, and never 19 before the solidity node has it', () => {
    expect(observationFromTransactionInfo(unknown, seen, 90)).toMatchObject({ final: false, confirmations: 0 });
    expect(observationFromTransactionInfo(unknown, seen, 400)).toMatchObject({ final: false, confirmations: 18 });
    expect(assessObservation(observationFromTransactionInfo(unknown, seen, 400), EXPECTATION).state).toBe('confirming');
  });

  it('is final once the solidity node returns it (at least 19 confirmations) and assesses as confirmed', () => {
    const observation = observationFromTransactionInfo(seen, seen, 101);
    expect(observation).toMatchObject({ kind: 'included', final: true, confirmations: 19 });
    expect(assessObservation(observation, EXPECTATION).state).toBe('confirmed');
  });

  it('is unknown when neither node has it', () => {
    expect(observationFromTransactionInfo(unknown, unknown, 100)).toEqual({ kind: 'unknown' });
  });
});

describe('several USDT transfers to the operator in one transaction', () => {
  const logs = decoded(
    transactionInfo({
      id: HASH,
      blockNumber: 100,
      logs: [
        transferLog(MAINNET_USDT_TRC20, FROM, OPERATOR, 5_000_000n),
        transferLog(MAINNET_USDT_TRC20, FROM, OPERATOR, 20_000_000n),
        transferLog(OTHER_TOKEN, FROM, OPERATOR, 50_000_000n),
        transferLog(MAINNET_USDT_TRC20, FROM, OPERATOR, 30_000_000n),
      ],
    }),
  ).transfers;
  const observation = {
    kind: 'included' as const,
    succeeded: true,
    blockNumber: 100n,
    confirmations: 19,
    requiredConfirmations: 19,
    final: true,
    transfers: logs,
  };

  it('are each depositable: USDT, to the operator, at least the minimum, not taken by another deposit', () => {
    expect(depositableTransfers(observation, EXPECTATION).map((log) => log.logIndex)).toEqual([1, 3]);
    expect(depositableTransfers(observation, { ...EXPECTATION, takenLogIndexes: new Set([1]) }).map((log) => log.logIndex)).toEqual([3]);
    expect(depositableTransfers({ ...observation, succeeded: false }, EXPECTATION)).toEqual([]);
  });

  it('a submitted deposit takes the free acceptable one of its typed amount; a bound deposit keeps its own', () => {
    expect(assessObservation(observation, EXPECTATION)).toMatchObject({ state: 'confirmed', transfer: { logIndex: 1, amountUsdtMicros: 20_000_000n } });
    expect(assessObservation(observation, { ...EXPECTATION, takenLogIndexes: new Set([1]) })).toMatchObject({ state: 'confirmed', transfer: { logIndex: 3 } });
    expect(assessObservation(observation, { ...EXPECTATION, boundLogIndex: 3, takenLogIndexes: new Set([1]) })).toMatchObject({
      state: 'confirmed',
      transfer: { logIndex: 3 },
    });
    expect(assessObservation(observation, { ...EXPECTATION, boundLogIndex: 0 })).toMatchObject({
      state: 'mismatch',
      problem: 'below_minimum',
      transfer: { logIndex: 0 },
    });
    // A bound log that is another token's is not the deposit's transfer.
    expect(assessObservation(observation, { ...EXPECTATION, boundLogIndex: 2 })).toMatchObject({ state: 'mismatch', problem: 'wrong_recipient' });
  });

  it('never lets an unbound deposit take a log another deposit stands for', () => {
    expect(assessObservation(observation, { ...EXPECTATION, takenLogIndexes: new Set([0, 1, 3]) })).toMatchObject({
      state: 'mismatch',
      problem: 'transfer_taken',
      transfer: undefined,
    });
  });
});

describe('TRON block reads and result spellings', () => {
  it('takes java-tron’s SUCESS and an absent result as success, and REVERT or FAILED as failure', () => {
    const info = transactionInfo({ id: HASH, blockNumber: 7, logs: [] });
    expect(transactionSucceeded({ ...info, receipt: { result: 'SUCESS' } })).toBe(true);
    expect(transactionSucceeded({ ...info, receipt: {} })).toBe(true);
    expect(transactionSucceeded({ id: HASH, blockNumber: 7 })).toBe(true);
    expect(transactionSucceeded({ ...info, receipt: { result: 'REVERT' } })).toBe(false);
    expect(transactionSucceeded({ ...info, result: 'FAILED' })).toBe(false);
  });

  it('reads a block’s transaction info as a list, and an empty block’s {} or [] as none', () => {
    const info = transactionInfo({ id: HASH, blockNumber: 7, logs: [transferLog(MAINNET_USDT_TRC20, FROM, OPERATOR, 5n)] });
    expect(blockTransactionInfoSchema.parse([info])).toHaveLength(1);
    expect(blockTransactionInfoSchema.parse([])).toEqual([]);
    expect(blockTransactionInfoSchema.parse({})).toEqual([]);
    expect(blockTransactionInfoSchema.safeParse({ unexpected: true }).success).toBe(false);
  });
});

describe('TRON signMessageV2 signatures', () => {
  it('recovers the signer of a published test vector (key 4398…8038, message "message")', async () => {
    const account = privateKeyToAccount('0x43985273a3d94eb753fe6acfd7003e88254effce1eb53e2e97b8522558a98038');
    const address = tronAddressFromAccountId(Buffer.from(account.address.slice(2), 'hex'));
    const signature = '0xfde00bc33d78109bc61de314c1c0526a047e22a2aaae473ca84b32d8aa35ed3e03720e05d614087e3d8c6fae63879755b32aa08818a2d4de66fee1a617a971671b';
    expect(await tronSignerOf('message', signature)).toBe(address);
    expect(await tronSignerOf('message!', signature)).not.toBe(address);
  });
});
