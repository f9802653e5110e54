import type { AdminWithdrawal } from '#shared/contracts/withdrawals';
import { inrText, usdtText } from './format.ts';

/**
 * What the confirmation of a withdrawal's approve or reject says will happen. Without a payout provider an approve
 * records a payment the admin already made by hand; with one (decision 043) an approve without a UTR sends the payout
 * through the provider, and a UTR typed in still records a payment made by hand.
 */
export function describeWithdrawalDecision(withdrawal: AdminWithdrawal, decision: 'approve' | 'reject', viaProvider: boolean): string {
  const inr = inrText(withdrawal.amountInr);
  // With TDS the bank pays the net amount: the gross less the TDS withheld.
  const paid = withdrawal.tdsPercent === '0.00' ? inr : `${inrText(withdrawal.netInr)} (${inr} less TDS ${inrText(withdrawal.tdsInr)})`;
  const payee = `${withdrawal.bank.accountHolderName}, ${withdrawal.bank.bankName} account ${withdrawal.bank.accountNumber} (IFSC ${withdrawal.bank.ifscCode})`;
  if (decision === 'reject')
    return `The ${usdtText(withdrawal.amountUsdt)} held for this withdrawal of ${inr} will be returned to the wallet of ${withdrawal.user.name} (${withdrawal.user.email}).`;
  if (viaProvider)
    return `Approving sends ${paid} to ${payee} through the payout provider at once; it is marked paid when the bank confirms it with a UTR. If you already paid it by hand, enter that payment’s UTR instead.`;
  return `Approve only after ${paid} has been paid to ${payee}.`;
}
