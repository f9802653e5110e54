import { describe, expect, it } from 'vitest';
import { providerPayoutLines } from '../../src/web/features/admin/provider-payout-lines.ts';

const NO_ATTEMPTS = { attempts: 0, lastError: null, lastErrorAt: null, heldBeforeSend: false };

describe('a provider payout as admins read it', () => {
  it('shows the state, amount and rail, UTR, reason, and each reported state with its time, source and result', () => {
    const lines = providerPayoutLines({
      provider: 'razorpayx',
      state: 'failed',
      mode: 'IMPS',
      amountInr: '830.00',
      utr: null,
      reason: 'Beneficiary bank systems are offline',
      attempts: 3,
      lastError: 'RazorpayX answered 503: the service is unavailable',
      lastErrorAt: '2026-11-27T10:04:00.000Z',
      heldBeforeSend: false,
      events: [
        { state: 'processing', utr: null, reason: null, source: 'send', at: '2026-11-27T10:00:00.000Z' },
        { state: 'failed', utr: null, reason: 'Beneficiary bank systems are offline', source: 'webhook', at: '2026-11-27T10:05:00.000Z' },
      ],
    });
    expect(lines.summary.slice(0, 5)).toEqual([
      'Provider state: failed',
      '₹830.00 by IMPS',
      'UTR: none yet',
      'Reason: Beneficiary bank systems are offline',
      'Attempts: 3',
    ]);
    expect(lines.summary[5]).toMatch(/^Last error \(.+\): RazorpayX answered 503: the service is unavailable$/);
    expect(lines.events).toHaveLength(2);
    expect(lines.events[0]).toMatch(/: processing \(answer to our request\)$/);
    expect(lines.events[1]).toMatch(/: failed \(provider’s notice\), Beneficiary bank systems are offline$/);
  });

  it('names a payout not sent yet and a processed one’s UTR', () => {
    expect(
      providerPayoutLines({ ...NO_ATTEMPTS, provider: 'razorpayx', state: 'unsent', mode: 'UPI', amountInr: '100.00', utr: null, reason: null, events: [] })
        .summary,
    ).toEqual(['Provider state: not sent yet', '₹100.00 by UPI', 'UTR: none yet', 'Attempts: 0', 'Last error: none']);
    const processed = providerPayoutLines({
      ...NO_ATTEMPTS,
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
