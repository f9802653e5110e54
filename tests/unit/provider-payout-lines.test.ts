import { describe, expect, it } from 'vitest';
import { providerPayoutLines } from '../../src/web/features/admin/provider-payout-lines.ts';

describe('a provider payout as admins read it', () => {
  it('shows the state, amount and rail, UTR, reason, and each reported state with its time, source and result', () => {
    const lines = providerPayoutLines({
      provider: 'razorpayx',
      state: 'failed',
      mode: 'IMPS',
      amountInr: '830.00',
      utr: null,
      reason: 'Beneficiary bank systems are offline',
      events: [
        { state: 'processing', utr: null, reason: null, source: 'send', at: '2026-11-27T10:00:00.000Z' },
        { state: 'failed', utr: null, reason: 'Beneficiary bank systems are offline', source: 'webhook', at: '2026-11-27T10:05:00.000Z' },
      ],
    });
    expect(lines.summary).toEqual(['Provider state: failed', '₹830.00 by IMPS', 'UTR: none yet', 'Reason: Beneficiary bank systems are offline']);
    expect(lines.events).toHaveLength(2);
    expect(lines.events[0]).toMatch(/: processing \(answer to our request\)$/);
    expect(lines.events[1]).toMatch(/: failed \(provider’s notice\), Beneficiary bank systems are offline$/);
  });

  it('names a payout not sent yet and a processed one’s UTR', () => {
    expect(
      providerPayoutLines({ provider: 'razorpayx', state: 'unsent', mode: 'UPI', amountInr: '100.00', utr: null, reason: null, events: [] }).summary,
    ).toEqual(['Provider state: not sent yet', '₹100.00 by UPI', 'UTR: none yet']);
    const processed = providerPayoutLines({
      provider: 'razorpayx',
      state: 'processed',
      mode: 'UPI',
      amountInr: '100.00',
      utr: '612345678901',
      reason: null,
      events: [{ state: 'processed', utr: '612345678901', reason: null, source: 'poll', at: '2026-11-27T10:00:00.000Z' }],
    });
    expect(processed.summary).toContain('UTR: 612345678901');
    expect(processed.events[0]).toMatch(/: processed \(our question\), UTR 612345678901$/);
  });
});
