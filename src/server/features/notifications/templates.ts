import { formatInrForDisplay, formatUsdtExact } from '#shared/money';
import type { NewNotification } from '../../platform/notifications/service.ts';

/*
 * The words of each notification: a short title and line for the app, and an
 * e-mail that names the request (its amount and reference id) so the customer
 * can match it without opening the app.
 */

const usdt = (amountUsdtMicros: bigint) => `${formatUsdtExact(amountUsdtMicros)} USDT`;
const reasonLine = (reason: string | null) => (reason ? `Reason: ${reason}` : 'No reason was given.');

export function depositDecided(deposit: {
  id: string;
  userId: string;
  amountUsdtMicros: bigint;
  network: string;
  transactionHash: string;
  outcome: 'approved' | 'rejected';
  rejectionReason: string | null;
}): NewNotification {
  const amount = usdt(deposit.amountUsdtMicros);
  const link = `/wallet/transactions/deposit/${deposit.id}`;
  const facts = `Deposit: ${amount} on ${deposit.network}\nTransaction hash: ${deposit.transactionHash}\nReference ID: ${deposit.id}`;
  if (deposit.outcome === 'approved') {
    return {
      userId: deposit.userId,
      kind: 'deposit_credited',
      title: 'Deposit credited',
      body: `Your deposit of ${amount} (${deposit.network}) was credited to your wallet.`,
      link,
      emailSubject: `Deposit credited: ${amount}`,
      emailText: `Your deposit of ${amount} was checked and credited to your wallet.\n\n${facts}`,
    };
  }
  return {
    userId: deposit.userId,
    kind: 'deposit_rejected',
    title: 'Deposit rejected',
    body: `Your deposit of ${amount} (${deposit.network}) was rejected. ${reasonLine(deposit.rejectionReason)}`,
    link,
    emailSubject: `Deposit rejected: ${amount}`,
    emailText: `Your deposit of ${amount} was rejected and nothing was credited.\n${reasonLine(deposit.rejectionReason)}\n\n${facts}`,
  };
}

/** What every withdrawal notification names. */
interface WithdrawalFacts {
  id: string;
  userId: string;
  amountUsdtMicros: bigint;
  amountInrPaise: bigint;
  bankName: string;
  accountNumberLast4: string;
  /** The short reference the customer, support and the bank file use (decision 038). */
  reference: string;
}

export function withdrawalDecided(
  withdrawal: WithdrawalFacts & { outcome: 'approved' | 'rejected'; payoutReference: string | null; rejectionReason: string | null },
): NewNotification {
  const inr = formatInrForDisplay(withdrawal.amountInrPaise);
  const amount = usdt(withdrawal.amountUsdtMicros);
  const bank = `${withdrawal.bankName} ••••${withdrawal.accountNumberLast4}`;
  const link = `/wallet/transactions/withdrawal/${withdrawal.id}`;
  const facts = `Withdrawal: ${amount} (${inr}) to ${bank}\nReference: ${withdrawal.reference}`;
  if (withdrawal.outcome === 'approved') {
    const utr = withdrawal.payoutReference ? ` Bank reference (UTR): ${withdrawal.payoutReference}.` : '';
    return {
      userId: withdrawal.userId,
      kind: 'withdrawal_paid',
      title: 'Withdrawal paid',
      body: `${inr} was paid to ${bank}.${utr}`,
      link,
      emailSubject: `Withdrawal paid: ${inr}`,
      emailText: `${inr} was paid to your bank account ${bank}.${utr}\n\n${facts}`,
    };
  }
  return {
    userId: withdrawal.userId,
    kind: 'withdrawal_rejected',
    title: 'Withdrawal rejected',
    body: `Your withdrawal of ${inr} was rejected and ${amount} returned to your wallet. ${reasonLine(withdrawal.rejectionReason)}`,
    link,
    emailSubject: `Withdrawal rejected: ${inr}`,
    emailText: `Your withdrawal of ${inr} was rejected. The ${amount} held for it are back in your wallet.\n${reasonLine(withdrawal.rejectionReason)}\n\n${facts}`,
  };
}

/** A paid withdrawal whose payment the bank returned afterwards (a payout provider's reversal, decision 043). */
export function withdrawalReversed(withdrawal: {
  id: string;
  userId: string;
  amountUsdtMicros: bigint;
  netInrPaise: bigint;
  bankName: string;
  accountNumberLast4: string;
  reason: string;
  reference: string;
}): NewNotification {
  const inr = formatInrForDisplay(withdrawal.netInrPaise);
  const amount = usdt(withdrawal.amountUsdtMicros);
  const bank = `${withdrawal.bankName} ••••${withdrawal.accountNumberLast4}`;
  return {
    userId: withdrawal.userId,
    kind: 'withdrawal_rejected',
    title: 'Withdrawal returned by the bank',
    body: `The payment of ${inr} to ${bank} came back from the bank and ${amount} returned to your wallet. ${reasonLine(withdrawal.reason)}`,
    link: `/wallet/transactions/withdrawal/${withdrawal.id}`,
    emailSubject: `Withdrawal returned: ${inr}`,
    emailText: `The payment of ${inr} to your bank account ${bank} came back from the bank. The ${amount} are back in your wallet. Please check the bank account before you withdraw to it again.\n${reasonLine(withdrawal.reason)}\n\nWithdrawal: ${amount} (${inr}) to ${bank}\nReference: ${withdrawal.reference}`,
  };
}

/** The customer cancelled a pending withdrawal (decision 044): what came back to the wallet. */
export function withdrawalCancelled(withdrawal: WithdrawalFacts): NewNotification {
  const inr = formatInrForDisplay(withdrawal.amountInrPaise);
  const amount = usdt(withdrawal.amountUsdtMicros);
  const bank = `${withdrawal.bankName} ••••${withdrawal.accountNumberLast4}`;
  return {
    userId: withdrawal.userId,
    kind: 'withdrawal_cancelled',
    title: 'Withdrawal cancelled',
    body: `You cancelled your withdrawal of ${inr}. ${amount} returned to your wallet.`,
    link: `/wallet/transactions/withdrawal/${withdrawal.id}`,
    emailSubject: `Withdrawal cancelled: ${inr}`,
    emailText: `You cancelled your withdrawal of ${inr}. The ${amount} held for it are back in your wallet. If you did not do this, change your password and contact support.\n\nWithdrawal: ${amount} (${inr}) to ${bank}\nReference: ${withdrawal.reference}`,
  };
}

export function transferDecided(transfer: {
  id: string;
  amountUsdtMicros: bigint;
  sender: { id: string; name: string; email: string };
  recipient: { id: string; name: string; email: string };
  outcome: 'approved' | 'rejected';
  rejectionReason: string | null;
}): NewNotification[] {
  const amount = usdt(transfer.amountUsdtMicros);
  const link = `/wallet/transactions/transfer/${transfer.id}`;
  const reference = `Reference ID: ${transfer.id}`;
  if (transfer.outcome === 'rejected') {
    return [
      {
        userId: transfer.sender.id,
        kind: 'transfer_rejected',
        title: 'Transfer rejected',
        body: `Your transfer of ${amount} to ${transfer.recipient.name} was rejected and returned to your wallet. ${reasonLine(transfer.rejectionReason)}`,
        link,
        emailSubject: `Transfer rejected: ${amount}`,
        emailText: `Your transfer of ${amount} to ${transfer.recipient.name} (${transfer.recipient.email}) was rejected. The ${amount} are back in your wallet.\n${reasonLine(transfer.rejectionReason)}\n\n${reference}`,
      },
    ];
  }
  return [
    {
      userId: transfer.sender.id,
      kind: 'transfer_approved',
      title: 'Transfer approved',
      body: `Your transfer of ${amount} to ${transfer.recipient.name} was approved.`,
      link,
      emailSubject: `Transfer approved: ${amount}`,
      emailText: `Your transfer of ${amount} to ${transfer.recipient.name} (${transfer.recipient.email}) was approved and credited to them.\n\n${reference}`,
    },
    {
      userId: transfer.recipient.id,
      kind: 'transfer_received',
      title: 'Transfer received',
      body: `You received ${amount} from ${transfer.sender.name}.`,
      link,
      emailSubject: `You received ${amount}`,
      emailText: `${transfer.sender.name} (${transfer.sender.email}) sent you ${amount}. It is in your wallet now.\n\n${reference}`,
    },
  ];
}

interface IncidentFacts {
  depositId: string;
  userId: string;
  network: string;
  transactionHash: string;
  amountUsdtMicros: bigint;
}

/**
 * The customer's side of a chain incident (decision 045): their credited deposit vanished in a reorganisation, so
 * the money it brought is held; later an admin takes it back or writes it off. Filed under deposits.
 */
export function depositIncidentForCustomer(incident: IncidentFacts, stage: 'held' | 'debited' | 'written_off', reason?: string): NewNotification {
  const amount = usdt(incident.amountUsdtMicros);
  const facts = `Deposit: ${amount} on ${incident.network}\nTransaction hash: ${incident.transactionHash}\nReference ID: ${incident.depositId}`;
  const base = { userId: incident.userId, kind: 'deposit_rejected' as const, link: `/wallet/transactions/deposit/${incident.depositId}` };
  if (stage === 'held') {
    return {
      ...base,
      title: 'Deposit on hold',
      body: `Your credited deposit of ${amount} (${incident.network}) is no longer on the blockchain. Withdrawals and transfers are held to that amount until it is settled.`,
      emailSubject: `Deposit on hold: ${amount}`,
      emailText: `Your deposit of ${amount} was credited, but after a reorganisation of the ${incident.network} blockchain its transfer is no longer there. Your balance is unchanged, but withdrawals and transfers must leave at least ${amount} in your wallet until the transfer is final again or our team settles it. We will write to you when that happens.\n\n${facts}`,
    };
  }
  if (stage === 'debited') {
    return {
      ...base,
      title: 'Deposit taken back',
      body: `${amount} were taken from your wallet: your deposit (${incident.network}) is no longer on the blockchain. ${reasonLine(reason ?? null)}`,
      emailSubject: `Deposit taken back: ${amount}`,
      emailText: `Your deposit of ${amount} is no longer on the ${incident.network} blockchain, so the ${amount} it credited were taken back from your wallet. The hold on your withdrawals and transfers is lifted.\n${reasonLine(reason ?? null)}\n\n${facts}`,
    };
  }
  return {
    ...base,
    title: 'Deposit hold lifted',
    body: `The hold of ${amount} on your wallet is lifted; the deposit (${incident.network}) stays credited.`,
    emailSubject: `Deposit hold lifted: ${amount}`,
    emailText: `The hold on your wallet for your deposit of ${amount} is lifted: the deposit stays credited, and withdrawals and transfers are open again.\n\n${facts}`,
  };
}

/** Told to an admin once per payout: a provider payout with an error, or not settled in time (decision 049). */
export function payoutStuckForAdmin(facts: { userId: string; reference: string; lastError: string | null; stuckMinutes: number }): NewNotification {
  const why = facts.lastError === null ? `It is not settled ${facts.stuckMinutes} minutes after it was handed to the payout provider.` : `Its last error: ${facts.lastError}`;
  return {
    userId: facts.userId,
    kind: 'payout_stuck',
    link: '/admin/transactions?tab=withdrawals&status=processing',
    title: `Payout ${facts.reference} needs a look`,
    body: why,
    emailSubject: `Payout ${facts.reference} is stuck`,
    emailText: `The payout of withdrawal ${facts.reference} through the payout provider needs a look. ${why}`,
  };
}

/** A referral reward whose deposit vanished from the chain, taken back (decision 049). */
export function referralRewardTakenBack(facts: { userId: string; rewardId: string; rewardUsdtMicros: bigint; takenBackUsdtMicros: bigint }): NewNotification {
  const reward = usdt(facts.rewardUsdtMicros);
  const taken = usdt(facts.takenBackUsdtMicros);
  const what =
    facts.takenBackUsdtMicros === facts.rewardUsdtMicros
      ? `The ${reward} were taken back from your wallet.`
      : `${taken} were taken back from your wallet; the rest is not asked of you.`;
  return {
    userId: facts.userId,
    kind: 'deposit_rejected',
    link: `/wallet/transactions/referral/${facts.rewardId}`,
    title: 'Referral bonus taken back',
    body: `The deposit your referral bonus of ${reward} was paid on is no longer on the blockchain. ${what}`,
    emailSubject: `Referral bonus taken back: ${reward}`,
    emailText: `A referral bonus of ${reward} was paid to you on a deposit of someone you referred. After a reorganisation of the blockchain that deposit's transfer is no longer there, so the bonus no longer applies. ${what}\n\nReference ID: ${facts.rewardId}`,
  };
}
