import { BANK_ACCOUNT_MESSAGES, type BlockingPayeeCheck } from '#shared/contracts/bank-accounts';
import { FREEZE_MESSAGES, KYC_REFRESH_MESSAGES } from '#shared/contracts/kyc';
import { formatInrForDisplay, formatUsdtExact } from '#shared/money';
import type { LocalizedNotification, NotificationTexts } from '../../platform/notifications/service.ts';

/*
 * The words of each notification: a short title and line for the app, and an
 * e-mail that names the request (its amount and reference id) so the customer
 * can match it without opening the app. Each is written in English (the spec's
 * texts) and in Hindi; the customer's profile language picks one when it is
 * stored (tests/unit/notification-templates.test.ts fails on a missing Hindi).
 * Amounts keep the Indian grouping in both languages.
 */

const usdt = (amountUsdtMicros: bigint) => `${formatUsdtExact(amountUsdtMicros)} USDT`;
// The same words as the app's (src/web/lib/i18n/catalogs/hi.json, message.accountFrozen).
const HINDI_FROZEN_TEXT =
  'आपके खाते की समीक्षा चल रही है, इसलिए निकासी, ट्रांसफ़र और बैंक खातों में बदलाव रुके हुए हैं। जमा राशि आपके बैलेंस में जुड़ती रहेगी। कोई सवाल हो तो सहायता से संपर्क करें।';
const reasonLine = (reason: string | null) => (reason ? `Reason: ${reason}` : 'No reason was given.');
const hindiReasonLine = (reason: string | null) => (reason ? `कारण: ${reason}` : 'कोई कारण नहीं बताया गया।');

type Base = Pick<LocalizedNotification, 'userId' | 'kind' | 'link'>;

function localized(base: Base, english: NotificationTexts, hindi: NotificationTexts): LocalizedNotification {
  return { ...base, ...english, hindi };
}

/** The lines that name a deposit at the end of its e-mails, in both languages. */
function depositFactLines(amount: string, network: string, transactionHash: string, depositId: string) {
  return {
    facts: `Deposit: ${amount} on ${network}\nTransaction hash: ${transactionHash}\nReference ID: ${depositId}`,
    hindiFacts: `जमा: ${amount} (${network})\nट्रांज़ैक्शन हैश: ${transactionHash}\nसंदर्भ आईडी: ${depositId}`,
  };
}

/** The amounts, the bank account and the lines that name a withdrawal at the end of its e-mails, in both languages. */
function withdrawalWords(withdrawal: { amountUsdtMicros: bigint; bankName: string; accountNumberLast4: string; reference: string }, inrPaise: bigint) {
  const inr = formatInrForDisplay(inrPaise);
  const amount = usdt(withdrawal.amountUsdtMicros);
  const bank = `${withdrawal.bankName} ••••${withdrawal.accountNumberLast4}`;
  return {
    inr,
    amount,
    bank,
    facts: `Withdrawal: ${amount} (${inr}) to ${bank}\nReference: ${withdrawal.reference}`,
    hindiFacts: `निकासी: ${amount} (${inr}), ${bank} में\nसंदर्भ: ${withdrawal.reference}`,
  };
}

export function depositDecided(deposit: {
  id: string;
  userId: string;
  amountUsdtMicros: bigint;
  network: string;
  transactionHash: string;
  outcome: 'approved' | 'rejected';
  rejectionReason: string | null;
}): LocalizedNotification {
  const amount = usdt(deposit.amountUsdtMicros);
  const link = `/wallet/transactions/deposit/${deposit.id}`;
  const { facts, hindiFacts } = depositFactLines(amount, deposit.network, deposit.transactionHash, deposit.id);
  if (deposit.outcome === 'approved') {
    return localized(
      { userId: deposit.userId, kind: 'deposit_credited', link },
      {
        title: 'Deposit credited',
        body: `Your deposit of ${amount} (${deposit.network}) was credited to your wallet.`,
        emailSubject: `Deposit credited: ${amount}`,
        emailText: `Your deposit of ${amount} was checked and credited to your wallet.\n\n${facts}`,
      },
      {
        title: 'जमा राशि जमा हो गई',
        body: `आपकी ${amount} (${deposit.network}) की जमा राशि आपके वॉलेट में जमा हो गई।`,
        emailSubject: `जमा राशि जमा हो गई: ${amount}`,
        emailText: `आपकी ${amount} की जमा राशि जाँची गई और आपके वॉलेट में जमा कर दी गई।\n\n${hindiFacts}`,
      },
    );
  }
  return localized(
    { userId: deposit.userId, kind: 'deposit_rejected', link },
    {
      title: 'Deposit rejected',
      body: `Your deposit of ${amount} (${deposit.network}) was rejected. ${reasonLine(deposit.rejectionReason)}`,
      emailSubject: `Deposit rejected: ${amount}`,
      emailText: `Your deposit of ${amount} was rejected and nothing was credited.\n${reasonLine(deposit.rejectionReason)}\n\n${facts}`,
    },
    {
      title: 'जमा अस्वीकार',
      body: `आपकी ${amount} (${deposit.network}) की जमा राशि अस्वीकार कर दी गई। ${hindiReasonLine(deposit.rejectionReason)}`,
      emailSubject: `जमा अस्वीकार: ${amount}`,
      emailText: `आपकी ${amount} की जमा राशि अस्वीकार कर दी गई और कुछ भी जमा नहीं हुआ।\n${hindiReasonLine(deposit.rejectionReason)}\n\n${hindiFacts}`,
    },
  );
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
): LocalizedNotification {
  const { inr, amount, bank, facts, hindiFacts } = withdrawalWords(withdrawal, withdrawal.amountInrPaise);
  const link = `/wallet/transactions/withdrawal/${withdrawal.id}`;
  if (withdrawal.outcome === 'approved') {
    const utr = withdrawal.payoutReference ? ` Bank reference (UTR): ${withdrawal.payoutReference}.` : '';
    const hindiUtr = withdrawal.payoutReference ? ` बैंक संदर्भ (UTR): ${withdrawal.payoutReference}।` : '';
    return localized(
      { userId: withdrawal.userId, kind: 'withdrawal_paid', link },
      {
        title: 'Withdrawal paid',
        body: `${inr} was paid to ${bank}.${utr}`,
        emailSubject: `Withdrawal paid: ${inr}`,
        emailText: `${inr} was paid to your bank account ${bank}.${utr}\n\n${facts}`,
      },
      {
        title: 'निकासी का भुगतान हो गया',
        body: `${bank} में ${inr} का भुगतान हो गया।${hindiUtr}`,
        emailSubject: `निकासी का भुगतान हो गया: ${inr}`,
        emailText: `आपके बैंक खाते ${bank} में ${inr} का भुगतान हो गया।${hindiUtr}\n\n${hindiFacts}`,
      },
    );
  }
  return localized(
    { userId: withdrawal.userId, kind: 'withdrawal_rejected', link },
    {
      title: 'Withdrawal rejected',
      body: `Your withdrawal of ${inr} was rejected and ${amount} returned to your wallet. ${reasonLine(withdrawal.rejectionReason)}`,
      emailSubject: `Withdrawal rejected: ${inr}`,
      emailText: `Your withdrawal of ${inr} was rejected. The ${amount} held for it are back in your wallet.\n${reasonLine(withdrawal.rejectionReason)}\n\n${facts}`,
    },
    {
      title: 'निकासी अस्वीकार',
      body: `आपकी ${inr} की निकासी अस्वीकार कर दी गई और ${amount} आपके वॉलेट में लौट आए। ${hindiReasonLine(withdrawal.rejectionReason)}`,
      emailSubject: `निकासी अस्वीकार: ${inr}`,
      emailText: `आपकी ${inr} की निकासी अस्वीकार कर दी गई। इसके लिए रोके गए ${amount} आपके वॉलेट में वापस आ गए हैं।\n${hindiReasonLine(withdrawal.rejectionReason)}\n\n${hindiFacts}`,
    },
  );
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
}): LocalizedNotification {
  const { inr, amount, bank, facts, hindiFacts } = withdrawalWords(withdrawal, withdrawal.netInrPaise);
  return localized(
    { userId: withdrawal.userId, kind: 'withdrawal_rejected', link: `/wallet/transactions/withdrawal/${withdrawal.id}` },
    {
      title: 'Withdrawal returned by the bank',
      body: `The payment of ${inr} to ${bank} came back from the bank and ${amount} returned to your wallet. ${reasonLine(withdrawal.reason)}`,
      emailSubject: `Withdrawal returned: ${inr}`,
      emailText: `The payment of ${inr} to your bank account ${bank} came back from the bank. The ${amount} are back in your wallet. Please check the bank account before you withdraw to it again.\n${reasonLine(withdrawal.reason)}\n\n${facts}`,
    },
    {
      title: 'बैंक ने निकासी लौटा दी',
      body: `${bank} को भेजा गया ${inr} का भुगतान बैंक से लौट आया और ${amount} आपके वॉलेट में वापस आ गए। ${hindiReasonLine(withdrawal.reason)}`,
      emailSubject: `निकासी लौट आई: ${inr}`,
      emailText: `आपके बैंक खाते ${bank} को भेजा गया ${inr} का भुगतान बैंक से लौट आया। ${amount} आपके वॉलेट में वापस आ गए हैं। इस खाते में फिर से निकासी करने से पहले कृपया बैंक खाते की जाँच करें।\n${hindiReasonLine(withdrawal.reason)}\n\n${hindiFacts}`,
    },
  );
}

/** The customer cancelled a pending withdrawal (decision 044): what came back to the wallet. */
export function withdrawalCancelled(withdrawal: WithdrawalFacts): LocalizedNotification {
  const { inr, amount, facts, hindiFacts } = withdrawalWords(withdrawal, withdrawal.amountInrPaise);
  return localized(
    { userId: withdrawal.userId, kind: 'withdrawal_cancelled', link: `/wallet/transactions/withdrawal/${withdrawal.id}` },
    {
      title: 'Withdrawal cancelled',
      body: `You cancelled your withdrawal of ${inr}. ${amount} returned to your wallet.`,
      emailSubject: `Withdrawal cancelled: ${inr}`,
      emailText: `You cancelled your withdrawal of ${inr}. The ${amount} held for it are back in your wallet. If you did not do this, change your password and contact support.\n\n${facts}`,
    },
    {
      title: 'निकासी रद्द',
      body: `आपने ${inr} की अपनी निकासी रद्द कर दी। ${amount} आपके वॉलेट में लौट आए।`,
      emailSubject: `निकासी रद्द: ${inr}`,
      emailText: `आपने ${inr} की अपनी निकासी रद्द कर दी। इसके लिए रोके गए ${amount} आपके वॉलेट में वापस आ गए हैं। अगर यह आपने नहीं किया, तो अपना पासवर्ड बदलें और सहायता से संपर्क करें।\n\n${hindiFacts}`,
    },
  );
}

export function transferDecided(transfer: {
  id: string;
  amountUsdtMicros: bigint;
  sender: { id: string; name: string; email: string };
  recipient: { id: string; name: string; email: string };
  outcome: 'approved' | 'rejected';
  rejectionReason: string | null;
}): LocalizedNotification[] {
  const amount = usdt(transfer.amountUsdtMicros);
  const link = `/wallet/transactions/transfer/${transfer.id}`;
  const reference = `Reference ID: ${transfer.id}`;
  const hindiReference = `संदर्भ आईडी: ${transfer.id}`;
  if (transfer.outcome === 'rejected') {
    return [
      localized(
        { userId: transfer.sender.id, kind: 'transfer_rejected', link },
        {
          title: 'Transfer rejected',
          body: `Your transfer of ${amount} to ${transfer.recipient.name} was rejected and returned to your wallet. ${reasonLine(transfer.rejectionReason)}`,
          emailSubject: `Transfer rejected: ${amount}`,
          emailText: `Your transfer of ${amount} to ${transfer.recipient.name} (${transfer.recipient.email}) was rejected. The ${amount} are back in your wallet.\n${reasonLine(transfer.rejectionReason)}\n\n${reference}`,
        },
        {
          title: 'ट्रांसफ़र अस्वीकार',
          body: `${transfer.recipient.name} को आपका ${amount} का ट्रांसफ़र अस्वीकार कर दिया गया और राशि आपके वॉलेट में लौट आई। ${hindiReasonLine(transfer.rejectionReason)}`,
          emailSubject: `ट्रांसफ़र अस्वीकार: ${amount}`,
          emailText: `${transfer.recipient.name} (${transfer.recipient.email}) को आपका ${amount} का ट्रांसफ़र अस्वीकार कर दिया गया। ${amount} आपके वॉलेट में वापस आ गए हैं।\n${hindiReasonLine(transfer.rejectionReason)}\n\n${hindiReference}`,
        },
      ),
    ];
  }
  return [
    localized(
      { userId: transfer.sender.id, kind: 'transfer_approved', link },
      {
        title: 'Transfer approved',
        body: `Your transfer of ${amount} to ${transfer.recipient.name} was approved.`,
        emailSubject: `Transfer approved: ${amount}`,
        emailText: `Your transfer of ${amount} to ${transfer.recipient.name} (${transfer.recipient.email}) was approved and credited to them.\n\n${reference}`,
      },
      {
        title: 'ट्रांसफ़र स्वीकृत',
        body: `${transfer.recipient.name} को आपका ${amount} का ट्रांसफ़र स्वीकृत हो गया।`,
        emailSubject: `ट्रांसफ़र स्वीकृत: ${amount}`,
        emailText: `${transfer.recipient.name} (${transfer.recipient.email}) को आपका ${amount} का ट्रांसफ़र स्वीकृत हुआ और उनके खाते में जमा हो गया।\n\n${hindiReference}`,
      },
    ),
    localized(
      { userId: transfer.recipient.id, kind: 'transfer_received', link },
      {
        title: 'Transfer received',
        body: `You received ${amount} from ${transfer.sender.name}.`,
        emailSubject: `You received ${amount}`,
        emailText: `${transfer.sender.name} (${transfer.sender.email}) sent you ${amount}. It is in your wallet now.\n\n${reference}`,
      },
      {
        title: 'ट्रांसफ़र मिला',
        body: `आपको ${transfer.sender.name} से ${amount} मिले।`,
        emailSubject: `आपको ${amount} मिले`,
        emailText: `${transfer.sender.name} (${transfer.sender.email}) ने आपको ${amount} भेजे। यह राशि अब आपके वॉलेट में है।\n\n${hindiReference}`,
      },
    ),
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
export function depositIncidentForCustomer(incident: IncidentFacts, stage: 'held' | 'debited' | 'written_off', reason?: string): LocalizedNotification {
  const amount = usdt(incident.amountUsdtMicros);
  const { facts, hindiFacts } = depositFactLines(amount, incident.network, incident.transactionHash, incident.depositId);
  const base: Base = { userId: incident.userId, kind: 'deposit_rejected', link: `/wallet/transactions/deposit/${incident.depositId}` };
  if (stage === 'held') {
    return localized(
      base,
      {
        title: 'Deposit on hold',
        body: `Your credited deposit of ${amount} (${incident.network}) is no longer on the blockchain. Withdrawals and transfers are held to that amount until it is settled.`,
        emailSubject: `Deposit on hold: ${amount}`,
        emailText: `Your deposit of ${amount} was credited, but after a reorganisation of the ${incident.network} blockchain its transfer is no longer there. Your balance is unchanged, but withdrawals and transfers must leave at least ${amount} in your wallet until the transfer is final again or our team settles it. We will write to you when that happens.\n\n${facts}`,
      },
      {
        title: 'जमा रोकी गई',
        body: `आपकी ${amount} (${incident.network}) की जमा की गई राशि अब ब्लॉकचेन पर नहीं है। मामला निपटने तक निकासी और ट्रांसफ़र पर इतनी राशि की रोक है।`,
        emailSubject: `जमा रोकी गई: ${amount}`,
        emailText: `आपकी ${amount} की जमा राशि जमा कर दी गई थी, पर ${incident.network} ब्लॉकचेन के पुनर्गठन के बाद उसका ट्रांसफ़र अब वहाँ नहीं है। आपका बैलेंस नहीं बदला है, पर जब तक ट्रांसफ़र फिर से अंतिम नहीं हो जाता या हमारी टीम मामला नहीं निपटाती, निकासी और ट्रांसफ़र के बाद आपके वॉलेट में कम से कम ${amount} रहने चाहिए। ऐसा होने पर हम आपको लिखेंगे।\n\n${hindiFacts}`,
      },
    );
  }
  if (stage === 'debited') {
    return localized(
      base,
      {
        title: 'Deposit taken back',
        body: `${amount} were taken from your wallet: your deposit (${incident.network}) is no longer on the blockchain. ${reasonLine(reason ?? null)}`,
        emailSubject: `Deposit taken back: ${amount}`,
        emailText: `Your deposit of ${amount} is no longer on the ${incident.network} blockchain, so the ${amount} it credited were taken back from your wallet. The hold on your withdrawals and transfers is lifted.\n${reasonLine(reason ?? null)}\n\n${facts}`,
      },
      {
        title: 'जमा राशि वापस ली गई',
        body: `आपके वॉलेट से ${amount} वापस ले लिए गए: आपकी जमा (${incident.network}) अब ब्लॉकचेन पर नहीं है। ${hindiReasonLine(reason ?? null)}`,
        emailSubject: `जमा राशि वापस ली गई: ${amount}`,
        emailText: `आपकी ${amount} की जमा अब ${incident.network} ब्लॉकचेन पर नहीं है, इसलिए इससे जमा हुए ${amount} आपके वॉलेट से वापस ले लिए गए। आपकी निकासी और ट्रांसफ़र पर लगी रोक हटा दी गई है।\n${hindiReasonLine(reason ?? null)}\n\n${hindiFacts}`,
      },
    );
  }
  return localized(
    base,
    {
      title: 'Deposit hold lifted',
      body: `The hold of ${amount} on your wallet is lifted; the deposit (${incident.network}) stays credited.`,
      emailSubject: `Deposit hold lifted: ${amount}`,
      emailText: `The hold on your wallet for your deposit of ${amount} is lifted: the deposit stays credited, and withdrawals and transfers are open again.\n\n${facts}`,
    },
    {
      title: 'जमा पर रोक हटी',
      body: `आपके वॉलेट पर ${amount} की रोक हटा दी गई है; जमा (${incident.network}) जमा ही रहेगी।`,
      emailSubject: `जमा पर रोक हटी: ${amount}`,
      emailText: `आपकी ${amount} की जमा के लिए आपके वॉलेट पर लगी रोक हटा दी गई है: जमा राशि जमा ही रहेगी, और निकासी और ट्रांसफ़र फिर से खुल गए हैं।\n\n${hindiFacts}`,
    },
  );
}

/** Told to an admin once per payout: a provider payout with an error, or not settled in time (decision 049). */
export function payoutStuckForAdmin(facts: { userId: string; reference: string; lastError: string | null; stuckMinutes: number }): LocalizedNotification {
  const why =
    facts.lastError === null
      ? `It is not settled ${facts.stuckMinutes} minutes after it was handed to the payout provider.`
      : `Its last error: ${facts.lastError}`;
  const hindiWhy =
    facts.lastError === null ? `पेआउट प्रदाता को सौंपे जाने के ${facts.stuckMinutes} मिनट बाद भी यह पूरा नहीं हुआ है।` : `इसकी पिछली त्रुटि: ${facts.lastError}`;
  return localized(
    { userId: facts.userId, kind: 'payout_stuck', link: '/admin/transactions?tab=withdrawals&status=processing' },
    {
      title: `Payout ${facts.reference} needs a look`,
      body: why,
      emailSubject: `Payout ${facts.reference} is stuck`,
      emailText: `The payout of withdrawal ${facts.reference} through the payout provider needs a look. ${why}`,
    },
    {
      title: `पेआउट ${facts.reference} को देखना ज़रूरी है`,
      body: hindiWhy,
      emailSubject: `पेआउट ${facts.reference} अटका हुआ है`,
      emailText: `निकासी ${facts.reference} का पेआउट प्रदाता के ज़रिए भुगतान देखना ज़रूरी है। ${hindiWhy}`,
    },
  );
}

/** Told to every admin when a closed account's balance rises (decision 060): the money waits for someone to act. */
export function closedAccountMoneyForAdmin(facts: { userId: string; closedUserId: string; email: string; balanceUsdtMicros: bigint }): LocalizedNotification {
  const balance = usdt(facts.balanceUsdtMicros);
  const what = `The closed account of ${facts.email} now holds ${balance}. Reopen it from the user's page so that its owner can withdraw the money.`;
  const hindiWhat = `${facts.email} का बंद खाता अब ${balance} रखता है। उपयोगकर्ता के पेज से इसे फिर से खोलें, ताकि इसका मालिक पैसा निकाल सके।`;
  return localized(
    { userId: facts.userId, kind: 'closed_account_money', link: `/admin/users/${facts.closedUserId}` },
    { title: 'Money arrived for a closed account', body: what, emailSubject: `Money arrived for a closed account: ${balance}`, emailText: what },
    { title: 'बंद खाते में पैसा आया', body: hindiWhat, emailSubject: `बंद खाते में पैसा आया: ${balance}`, emailText: hindiWhat },
  );
}

/** A referral reward whose deposit vanished from the chain, taken back (decision 049). */
export function referralRewardTakenBack(facts: {
  userId: string;
  rewardId: string;
  rewardUsdtMicros: bigint;
  takenBackUsdtMicros: bigint;
}): LocalizedNotification {
  const reward = usdt(facts.rewardUsdtMicros);
  const taken = usdt(facts.takenBackUsdtMicros);
  const whole = facts.takenBackUsdtMicros === facts.rewardUsdtMicros;
  const what = whole ? `The ${reward} were taken back from your wallet.` : `${taken} were taken back from your wallet; the rest is not asked of you.`;
  const hindiWhat = whole ? `${reward} आपके वॉलेट से वापस ले लिए गए।` : `${taken} आपके वॉलेट से वापस ले लिए गए; बाकी राशि आपसे नहीं माँगी जाएगी।`;
  return localized(
    { userId: facts.userId, kind: 'deposit_rejected', link: `/wallet/transactions/referral/${facts.rewardId}` },
    {
      title: 'Referral bonus taken back',
      body: `The deposit your referral bonus of ${reward} was paid on is no longer on the blockchain. ${what}`,
      emailSubject: `Referral bonus taken back: ${reward}`,
      emailText: `A referral bonus of ${reward} was paid to you on a deposit of someone you referred. After a reorganisation of the blockchain that deposit's transfer is no longer there, so the bonus no longer applies. ${what}\n\nReference ID: ${facts.rewardId}`,
    },
    {
      title: 'रेफ़रल बोनस वापस लिया गया',
      body: `जिस जमा पर आपको ${reward} का रेफ़रल बोनस मिला था, वह अब ब्लॉकचेन पर नहीं है। ${hindiWhat}`,
      emailSubject: `रेफ़रल बोनस वापस लिया गया: ${reward}`,
      emailText: `आपके रेफ़र किए गए किसी व्यक्ति की जमा पर आपको ${reward} का रेफ़रल बोनस मिला था। ब्लॉकचेन के पुनर्गठन के बाद उस जमा का ट्रांसफ़र अब मौजूद नहीं है, इसलिए बोनस लागू नहीं रहता। ${hindiWhat}\n\nसंदर्भ आईडी: ${facts.rewardId}`,
    },
  );
}

/** The customer's account frozen for a review (decision 047): what stops and what goes on. The admin's reason is not shown. */
export function accountFrozen(userId: string): LocalizedNotification {
  return localized(
    { userId, kind: 'kyc_updated', link: '/kyc' },
    {
      title: 'Your account is under review',
      body: FREEZE_MESSAGES.customer,
      emailSubject: 'Your account is under review',
      emailText: FREEZE_MESSAGES.customer,
    },
    {
      title: 'आपके खाते की समीक्षा चल रही है',
      body: HINDI_FROZEN_TEXT,
      emailSubject: 'आपके खाते की समीक्षा चल रही है',
      emailText: HINDI_FROZEN_TEXT,
    },
  );
}

/** The review finished and the freeze lifted. */
export function accountReviewFinished(userId: string): LocalizedNotification {
  const text = 'The review of your account is finished: withdrawals, transfers and changes to your bank accounts are possible again.';
  const hindiText = 'आपके खाते की समीक्षा पूरी हो गई है: निकासी, ट्रांसफ़र और बैंक खातों में बदलाव फिर से किए जा सकते हैं।';
  return localized(
    { userId, kind: 'kyc_updated', link: '/kyc' },
    { title: 'Account review finished', body: text, emailSubject: 'Your account review is finished', emailText: text },
    { title: 'खाते की समीक्षा पूरी हुई', body: hindiText, emailSubject: 'आपके खाते की समीक्षा पूरी हो गई है', emailText: hindiText },
  );
}

/**
 * The KYC refresh date passed before the customer was told it was near (decision 047): sent once for that date, in the
 * words of the KYC page and the refusal (KYC_REFRESH_MESSAGES.overdue; hi.json, message.kycRefreshOverdue).
 */
export function kycRefreshOverdue(userId: string): LocalizedNotification {
  const text = KYC_REFRESH_MESSAGES.overdue;
  const hindiText =
    'आपके KYC का समय-समय पर होने वाला नवीनीकरण बाकी है, इसलिए निकासी और ट्रांसफ़र रुके हुए हैं। KYC पेज पर इसे नवीनीकृत करें: नई जाँच के लिए अपना PAN फिर से जमा करें और अपनी कर-निवास की घोषणा फिर से करें।';
  return localized(
    { userId, kind: 'kyc_required', link: '/kyc' },
    { title: 'Time to refresh your KYC', body: text, emailSubject: 'Time to refresh your KYC', emailText: text },
    { title: 'अपना KYC नवीनीकृत करने का समय', body: hindiText, emailSubject: 'अपना KYC नवीनीकृत करने का समय', emailText: hindiText },
  );
}

/** The KYC refresh is near (decision 047): sent once, 14 days before the date, by the KYC refresh notice worker. */
export function kycRefreshDue(userId: string, dueAt: Date): LocalizedNotification {
  const date = (locale: string) => dueAt.toLocaleDateString(locale, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
  const text = `Refresh your KYC by ${date('en-IN')}: submit your PAN again for a fresh check and declare your tax residence again on the KYC page. After that date withdrawals and transfers pause until the refresh is done.`;
  const hindiText = `${date('hi-IN')} तक अपना KYC नवीनीकृत करें: KYC पेज पर नई जाँच के लिए अपना PAN फिर से जमा करें और अपनी कर-निवास की घोषणा फिर से करें। उस तारीख के बाद नवीनीकरण पूरा होने तक निकासी और ट्रांसफ़र रुक जाएँगे।`;
  return localized(
    { userId, kind: 'kyc_required', link: '/kyc' },
    { title: 'Time to refresh your KYC', body: text, emailSubject: 'Time to refresh your KYC', emailText: text },
    { title: 'अपना KYC नवीनीकृत करने का समय', body: hindiText, emailSubject: 'अपना KYC नवीनीकृत करने का समय', emailText: hindiText },
  );
}

// Each check that blocks a payee (decision 054) with what happened and what to do, in the same words as the app's bank
// accounts page (src/web/lib/i18n/catalogs/hi.json, message.payeeNameMismatch, message.payeeInvalid, message.payeeCheckFailed
// and message.payeeRejected); `rejected` is an admin's decision on such a payee (decision 057).
const PAYEE_BLOCKED_TEXTS: Record<BlockingPayeeCheck | 'rejected', { english: string; hindi: string }> = {
  name_mismatch: {
    english: BANK_ACCOUNT_MESSAGES.nameMismatch,
    hindi:
      'बैंक में इस खाते का नाम आपके नाम से मेल नहीं खाता। इसमें निकासी तब तक रुकी रहेगी जब तक हमारी टीम इसे स्वीकार न कर ले; आप इसे बदल भी सकते हैं या अपने नाम का खाता जोड़ सकते हैं।',
  },
  invalid: {
    english: BANK_ACCOUNT_MESSAGES.invalidAccount,
    hindi: 'बैंक के अनुसार यह खाता पैसे प्राप्त नहीं कर सकता। खाता संख्या और IFSC जाँचें, फिर खाते को बदलें या दूसरा खाता जोड़ें।',
  },
  check_failed: {
    english: BANK_ACCOUNT_MESSAGES.checkFailed,
    hindi: 'हम इस बैंक खाते की बैंक से जाँच नहीं कर सके। इसमें निकासी तब तक रुकी रहेगी जब तक हमारी टीम इसे स्वीकार न कर ले; आप इसे बदल भी सकते हैं।',
  },
  rejected: {
    english: BANK_ACCOUNT_MESSAGES.rejected,
    hindi:
      'हमारी टीम ने इस बैंक खाते की समीक्षा की और इसे स्वीकार नहीं किया, इसलिए इसमें निकासी संभव नहीं है। इसे फिर से जाँचने के लिए इसका विवरण बदलें, या इसे हटाकर अपने नाम का खाता जोड़ें।',
  },
};

/**
 * The bank's check of a new or changed bank account blocked it (decision 054), or an admin rejected it (decision 057):
 * which account, what happened and what to do. The name the bank has is never said: the account may be someone else's.
 */
export function payeeBlocked(payee: {
  userId: string;
  bankName: string;
  accountNumberLast4: string;
  check: BlockingPayeeCheck | 'rejected';
}): LocalizedNotification {
  const bank = `${payee.bankName} ••••${payee.accountNumberLast4}`;
  const text = PAYEE_BLOCKED_TEXTS[payee.check];
  const byTeam = payee.check === 'rejected';
  return localized(
    { userId: payee.userId, kind: 'withdrawal_payee_blocked', link: '/bank-accounts' },
    {
      title: 'Bank account needs attention',
      body: `${bank}: ${text.english}`,
      emailSubject: `Bank account ${bank} needs attention`,
      emailText: `${byTeam ? `Our team reviewed your bank account ${bank}.` : `We checked your bank account ${bank} with the bank.`}\n${text.english}\n\nOpen Bank accounts in the app to edit it or add another one.`,
    },
    {
      title: 'बैंक खाते पर ध्यान दें',
      body: `${bank}: ${text.hindi}`,
      emailSubject: `बैंक खाते ${bank} पर ध्यान दें`,
      emailText: `${byTeam ? `हमारी टीम ने आपके बैंक खाते ${bank} की समीक्षा की।` : `हमने आपके बैंक खाते ${bank} की बैंक से जाँच की।`}\n${text.hindi}\n\nइसे बदलने या दूसरा खाता जोड़ने के लिए ऐप में बैंक खाते खोलें।`,
    },
  );
}
