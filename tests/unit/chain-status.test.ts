import { describe, expect, it } from 'vitest';
import type { DepositChain } from '#shared/contracts/deposits';
import { adminChainBadge, customerChainStatus } from '../../src/web/features/wallet/chain-status.tsx';

const CONFIRMED: DepositChain = {
  state: 'confirmed',
  problem: null,
  delayed: false,
  amountUsdt: '50.000000',
  fromAddress: '0xabc',
  toAddress: '0xdef',
  confirmations: 12,
  requiredConfirmations: 12,
  blockNumber: '100',
  logIndex: 0,
  checkedAt: '2026-11-27T09:00:00.000Z',
  senderProven: false,
  transfersToAddress: 1,
};

describe('deposit badges say what the chain proves (decision 037)', () => {
  it('is green only for a transfer from a wallet the customer proved; an unproven sender is amber', () => {
    expect(adminChainBadge({ ...CONFIRMED, senderProven: true }, null)).toEqual({ label: 'Verified on chain', tone: 'success' });
    expect(adminChainBadge(CONFIRMED, null)).toEqual({ label: 'Transfer verified, sender not proven', tone: 'warning' });
    expect(adminChainBadge(CONFIRMED, '40.000000')).toEqual({ label: 'Transfer verified, sender not proven; amount differs', tone: 'warning' });
    expect(customerChainStatus('pending', CONFIRMED)).toBe('Transfer verified, sender not proven, waiting for admin review');
    expect(customerChainStatus('pending', { ...CONFIRMED, senderProven: true })).toBe('Verified on chain, waiting for admin review');
  });

  it('says when the transaction pays the deposit address several times, and names an ambiguous claim', () => {
    expect(adminChainBadge({ ...CONFIRMED, transfersToAddress: 2 }, null)).toEqual({
      label: 'Transfer verified, sender not proven',
      tone: 'warning',
      note: 'This transaction pays our address 2 times',
    });
    expect(adminChainBadge({ ...CONFIRMED, state: 'mismatch', problem: 'ambiguous', transfersToAddress: 3 }, '77.000000')).toEqual({
      label: 'Several transfers, none provably this customer’s',
      tone: 'danger',
      note: 'This transaction pays our address 3 times',
    });
  });
});
