import { describe, expect, it } from 'vitest';
import { cashfreeTransferJson } from '../../src/server/features/payouts/cashfree-client.ts';
import type { PayoutInstruction } from '../../src/server/features/payouts/provider.ts';

function instruction(amountInrPaise: bigint, overrides: Partial<PayoutInstruction> = {}): PayoutInstruction {
  return {
    idempotencyKey: 'withdrawal-key',
    reference: 'RD7K3F92QX',
    amountInrPaise,
    mode: 'IMPS',
    payee: { name: 'Asha Rao', accountNumber: '123456789012', ifsc: 'SBIN0001234', upiId: null },
    customerReference: 'customer-1',
    ...overrides,
  };
}

describe('the Cashfree transfer body (decision 067)', () => {
  it.each([
    [12_345n, '123.45'],
    [1n, '0.01'],
    [10n, '0.10'],
    [100n, '1.00'],
    [83_000n, '830.00'],
    [100_000_000n, '1000000.00'],
    [900_719_925_474_099_312n, '9007199254740993.12'],
  ])('writes %s paise as the JSON number %s, from the paise digits rather than a float', (paise, text) => {
    const json = cashfreeTransferJson(instruction(paise));
    expect(json).toContain(`"transfer_amount":${text},`);
    expect(typeof (JSON.parse(json) as { transfer_amount: unknown }).transfer_amount).toBe('number');
  });

  it('keeps every other field as before: the transfer id, INR, the rail and the payee', () => {
    expect(JSON.parse(cashfreeTransferJson(instruction(12_345n)))).toEqual({
      transfer_amount: 123.45,
      transfer_id: 'RD7K3F92QX',
      transfer_currency: 'INR',
      transfer_mode: 'imps',
      beneficiary_details: {
        beneficiary_name: 'Asha Rao',
        beneficiary_instrument_details: { bank_account_number: '123456789012', bank_ifsc: 'SBIN0001234' },
      },
      transfer_remarks: expect.stringContaining('RD7K3F92QX') as unknown,
    });
    const upi = JSON.parse(
      cashfreeTransferJson(instruction(100n, { mode: 'UPI', payee: { name: 'Asha Rao', accountNumber: '1', ifsc: 'SBIN0001234', upiId: 'asha@oksbi' } })),
    );
    expect(upi).toMatchObject({ transfer_mode: 'upi', beneficiary_details: { beneficiary_instrument_details: { vpa: 'asha@oksbi' } } });
  });

  it('refuses an amount that is not positive rather than send it', () => {
    expect(() => cashfreeTransferJson(instruction(0n))).toThrow(/not positive/);
    expect(() => cashfreeTransferJson(instruction(-5n))).toThrow(/not positive/);
  });
});
