import { CHAIN_MESSAGES, confirmingLabel, type DepositChain } from '#shared/contracts/deposits';
import type { RequestStatus } from '#shared/contracts/enums';
import { translate as t } from '../../lib/i18n/i18n.ts';

/*
 * How a deposit's verification on the blockchain reads to the customer: a short
 * status ("Confirming (2 of 12)", "Credited") and, when there is one, a sentence
 * saying what the chain showed. "Pending Approval" stays the words for a
 * deposit nothing has been learned about yet.
 */

export function customerChainStatus(status: RequestStatus, chain: DepositChain): string | undefined {
  if (status === 'approved') return t('chain.credited');
  if (status !== 'pending') return undefined;
  if (chain.delayed) return t('chain.delayed');
  if (chain.problem === 'below_minimum') return t('chain.belowMinimumNotCredited');
  if (chain.state === 'confirming')
    return chain.confirmations === null || chain.requiredConfirmations === null
      ? t('chain.confirming')
      : t('chain.confirmingCount', { count: Math.min(chain.confirmations, chain.requiredConfirmations), required: chain.requiredConfirmations });
  if (chain.state === 'confirmed') return chain.senderProven === true ? t('chain.verifiedWaiting') : t('chain.senderNotProvenWaiting');
  return undefined;
}

/** What a transfer found on chain proves when its sender is no wallet of the customer's (decision 037). */
export const TRANSFER_VERIFIED_SENDER_NOT_PROVEN = 'Transfer verified, sender not proven';

export function customerChainNote(status: RequestStatus, chain: DepositChain): string | undefined {
  if (status !== 'pending') return undefined;
  if (chain.problem === 'other_network') return t('chain.otherNetwork');
  if (chain.state === 'not_found') return t('chain.notFound');
  if (chain.state === 'failed') return t('chain.failed');
  if (chain.problem === 'wrong_recipient') return t('chain.wrongRecipient');
  if (chain.problem === 'wrong_token') return t('chain.wrongToken');
  if (chain.problem === 'below_minimum') return t('chain.belowMinimum');
  if (chain.problem === 'amount_too_large') return t('chain.amountTooLarge');
  if (chain.problem === 'ambiguous') return t('chain.ambiguous');
  if (chain.problem === 'transfer_taken') return t('chain.transferTaken');
  if (chain.problem === 'sender_of_another_customer') return t('chain.senderOfAnotherCustomer');
  if (chain.state === 'confirmed') return t('chain.waitingForAdmin');
  return undefined;
}

type BadgeTone = 'success' | 'warning' | 'danger' | 'default';

/**
 * The admin queue's one-glance verdict, with the badge tone it is shown in, and a note when the
 * transaction pays the deposit address several times. Green only for what is proven: a final
 * transfer from a wallet this customer proved (decision 037).
 */
export function adminChainBadge(chain: DepositChain, typedAmount: string | null): { label: string; tone: BadgeTone; note?: string } {
  const badge = adminChainVerdict(chain, typedAmount);
  const several =
    chain.transfersToAddress !== null && chain.transfersToAddress > 1 ? `This transaction pays our address ${chain.transfersToAddress} times` : undefined;
  return several ? { ...badge, note: several } : badge;
}

function adminChainVerdict(chain: DepositChain, typedAmount: string | null): { label: string; tone: BadgeTone } {
  if (chain.delayed && chain.state === 'unchecked') return { label: CHAIN_MESSAGES.delayed, tone: 'warning' };
  switch (chain.state) {
    case 'unchecked':
      return { label: CHAIN_MESSAGES.notChecked, tone: 'default' };
    case 'confirming':
      return { label: confirmingLabel(chain.confirmations, chain.requiredConfirmations), tone: 'warning' };
    case 'not_found':
      return { label: 'Not found', tone: 'danger' };
    case 'failed':
      return { label: 'Failed on chain', tone: 'danger' };
    case 'mismatch':
      if (chain.problem === 'wrong_recipient') return { label: 'Wrong recipient', tone: 'danger' };
      if (chain.problem === 'wrong_token') return { label: 'Wrong token', tone: 'danger' };
      if (chain.problem === 'other_network') return { label: 'Other network', tone: 'danger' };
      if (chain.problem === 'below_minimum') return { label: 'Below minimum', tone: 'danger' };
      if (chain.problem === 'sender_of_another_customer') return { label: 'Sender is another customer’s wallet', tone: 'danger' };
      if (chain.problem === 'ambiguous') return { label: 'Several transfers, none provably this customer’s', tone: 'danger' };
      if (chain.problem === 'transfer_taken') return { label: 'Transfer is another deposit', tone: 'danger' };
      return { label: 'Amount too large', tone: 'danger' };
    case 'confirmed':
      if (chain.problem === 'sender_of_another_customer') return { label: 'Sender is another customer’s wallet', tone: 'danger' };
      if (chain.senderProven !== true)
        return {
          label: typedAmount === null ? TRANSFER_VERIFIED_SENDER_NOT_PROVEN : `${TRANSFER_VERIFIED_SENDER_NOT_PROVEN}; amount differs`,
          tone: 'warning',
        };
      if (typedAmount !== null) return { label: 'Verified on chain; amount differs', tone: 'warning' };
      return { label: 'Verified on chain', tone: 'success' };
  }
}
