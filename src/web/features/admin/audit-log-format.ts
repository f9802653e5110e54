import type { AuditAction } from '#shared/contracts/enums';
import { isAuditAction } from '#shared/contracts/enums';
import { formatInrForDisplay, formatUsdtExact, inrPaiseFromWire, usdtMicrosFromWire } from '#shared/money';

/** A label for every action the server records (AUDIT_ACTIONS); older or unknown actions show as they are stored. */
export const ACTION_LABELS: Record<AuditAction, string> = {
  'deposit.approve': 'Deposit approved',
  'deposit.reject': 'Deposit rejected',
  'deposit.assign': 'Unclaimed transfer assigned',
  'withdrawal.approve': 'Withdrawal approved',
  'withdrawal.reject': 'Withdrawal rejected',
  'withdrawal.cancel': 'Withdrawal cancelled by the customer',
  'withdrawals.export': 'Pending withdrawals exported (CSV)',
  'transfer.approve': 'Transfer approved',
  'transfer.reject': 'Transfer rejected',
  'settings.update': 'Settings changed',
  'settings.file_upload': 'Settings file uploaded',
  'user.update': 'User role or VIP level changed',
  'user.sessions_revoke': 'User sessions ended',
  'wallet.add': 'Customer wallet verified',
  'wallet.remove': 'Customer wallet removed',
  'payout_batch.create': 'Payout batch created',
  'payout_batch.download': 'Payout file downloaded',
  'payout_batch.results': 'Payout results applied',
  'payout_batch.cancel': 'Payout batch cancelled',
  'pending_change.request': 'Change awaiting a second admin',
  'pending_change.confirm': 'Change confirmed by a second admin',
  'pending_change.discard': 'Pending change discarded',
  'profile.pan_update': 'PAN saved by the customer',
  'kyc.pan_submit': 'PAN submitted for KYC',
  'kyc.pan_check': 'PAN checked by the KYC provider',
  'kyc.pan_review': 'PAN verified or rejected by an admin',
  'kyc.tax_residence': 'Tax residence declared by the customer',
  'kyc.level2_submit': 'KYC level 2 sent by the customer',
  'kyc.document_view': 'KYC document viewed',
  'kyc.level2_approve': 'KYC level 2 approved',
  'kyc.level2_reject': 'KYC level 2 rejected',
  'kyc.level2_request_again': 'KYC document asked for again',
  'kyc_pan.approve': 'PAN approved at the KYC desk',
  'kyc_pan.reject': 'PAN rejected at the KYC desk',
  'kyc.pan_card_upload': 'PAN card photo added by the customer',
  'kyc_pan.request_card': 'PAN card photo asked for at the KYC desk',
  'kyc.freeze': 'Account frozen',
  'kyc.unfreeze': 'Account freeze lifted',
  'kyc.risk_set': 'Risk category set',
  'profile.update': 'Name or phone changed by the customer',
  'account.close': 'Account closed by the customer',
  'account.reopen': 'Closed account reopened by an admin',
  'kyc.images_purge': 'KYC images purged after the retention',
  'reports.tds_export': 'TDS report downloaded (CSV)',
  'withdrawal.reverse': 'Paid withdrawal reversed by the bank; USDT returned',
  'chain_incident.settle': 'Chain incident settled',
  'deposit_key.set': 'Deposit key (xpub) set',
  'payee.check': 'Bank account checked with the bank (penny drop)',
  'payee.accept': 'Bank account accepted by an admin',
  'payee.reject': 'Bank account rejected by an admin',
};

/** Approvals look green and rejections (and what takes something away) red, so a reader tells them apart at a glance. */
export type ActionTone = 'approval' | 'rejection' | 'neutral';

export const ACTION_TONES: Record<AuditAction, ActionTone> = {
  'deposit.approve': 'approval',
  'deposit.reject': 'rejection',
  'deposit.assign': 'neutral',
  'withdrawal.approve': 'approval',
  'withdrawal.reject': 'rejection',
  'withdrawal.reverse': 'rejection',
  'withdrawal.cancel': 'neutral',
  'withdrawals.export': 'neutral',
  'transfer.approve': 'approval',
  'transfer.reject': 'rejection',
  'settings.update': 'neutral',
  'settings.file_upload': 'neutral',
  'user.update': 'neutral',
  'user.sessions_revoke': 'rejection',
  'wallet.add': 'approval',
  'wallet.remove': 'rejection',
  'payout_batch.create': 'neutral',
  'payout_batch.download': 'neutral',
  'payout_batch.results': 'approval',
  'payout_batch.cancel': 'rejection',
  'pending_change.request': 'neutral',
  'pending_change.confirm': 'approval',
  'pending_change.discard': 'rejection',
  'profile.pan_update': 'neutral',
  'kyc.pan_submit': 'neutral',
  'kyc.pan_check': 'neutral',
  'kyc.pan_review': 'neutral',
  'kyc.tax_residence': 'neutral',
  'kyc.level2_submit': 'neutral',
  'kyc.document_view': 'neutral',
  'kyc.level2_approve': 'approval',
  'kyc.level2_reject': 'rejection',
  'kyc.level2_request_again': 'neutral',
  'kyc_pan.approve': 'approval',
  'kyc_pan.reject': 'rejection',
  'kyc.pan_card_upload': 'neutral',
  'kyc_pan.request_card': 'neutral',
  'kyc.freeze': 'rejection',
  'kyc.unfreeze': 'approval',
  'kyc.risk_set': 'neutral',
  'profile.update': 'neutral',
  'account.close': 'rejection',
  'account.reopen': 'approval',
  'kyc.images_purge': 'neutral',
  'reports.tds_export': 'neutral',
  'chain_incident.settle': 'neutral',
  'deposit_key.set': 'neutral',
  'payee.check': 'neutral',
  'payee.accept': 'approval',
  'payee.reject': 'rejection',
};

export function actionLabel(action: string): string {
  return isAuditAction(action) ? ACTION_LABELS[action] : action;
}

export function actionTone(action: string): ActionTone {
  return isAuditAction(action) ? ACTION_TONES[action] : 'neutral';
}

/** How a detail field's value reads: amounts in their units, words for the closed sets, the rest as stored. */
type FieldKind = 'usdtMicros' | 'inrPaise' | 'usdtWire' | 'rateWire' | 'inrWire' | 'bytes' | 'list' | 'words' | 'text';

interface FieldLook {
  label: string;
  kind: FieldKind;
}

/** Every field the server writes into an audit entry's before/after, with its label. */
export const AUDIT_FIELDS = {
  status: { label: 'Status', kind: 'words' },
  amountUsdtMicros: { label: 'Amount', kind: 'usdtMicros' },
  amountInrPaise: { label: 'Amount (INR)', kind: 'inrPaise' },
  refundedUsdtMicros: { label: 'Refunded', kind: 'usdtMicros' },
  totalInrPaise: { label: 'Total', kind: 'inrPaise' },
  reason: { label: 'Reason', kind: 'text' },
  payoutReference: { label: 'UTR', kind: 'text' },
  referralRewards: { label: 'Referral rewards', kind: 'list' },
  recipientUserId: { label: 'Recipient', kind: 'text' },
  role: { label: 'Role', kind: 'words' },
  vipLevel: { label: 'VIP level', kind: 'words' },
  sessions: { label: 'Active sessions', kind: 'text' },
  network: { label: 'Network', kind: 'text' },
  address: { label: 'Address', kind: 'text' },
  normalRate: { label: 'Normal rate', kind: 'rateWire' },
  vipRate: { label: 'VIP rate', kind: 'rateWire' },
  trc20Address: { label: 'TRC20 address', kind: 'text' },
  erc20Address: { label: 'ERC20 address', kind: 'text' },
  whatsappSupportNumber: { label: 'WhatsApp support number', kind: 'text' },
  websiteUrl: { label: 'Website URL', kind: 'text' },
  minDeposit: { label: 'Minimum deposit', kind: 'usdtWire' },
  trc20QrFileId: { label: 'TRC20 QR image', kind: 'text' },
  erc20QrFileId: { label: 'ERC20 QR image', kind: 'text' },
  apkFileId: { label: 'App file', kind: 'text' },
  fileId: { label: 'File', kind: 'text' },
  purpose: { label: 'Purpose', kind: 'words' },
  originalName: { label: 'File name', kind: 'text' },
  contentType: { label: 'File type', kind: 'text' },
  sizeBytes: { label: 'Size', kind: 'bytes' },
  sha256: { label: 'SHA-256', kind: 'text' },
  count: { label: 'Withdrawals', kind: 'text' },
  withdrawalIds: { label: 'Withdrawal IDs', kind: 'list' },
  releasedWithdrawalIds: { label: 'Withdrawals returned to pending', kind: 'list' },
  rows: { label: 'Rows', kind: 'text' },
  applied: { label: 'Applied', kind: 'text' },
  alreadyApplied: { label: 'Already applied', kind: 'text' },
  refused: { label: 'Refused', kind: 'text' },
  awaitingSecondApproval: { label: 'Awaiting second approval', kind: 'text' },
  largeWithdrawalInr: { label: 'Large withdrawal', kind: 'inrWire' },
  kind: { label: 'Change', kind: 'words' },
  from: { label: 'From', kind: 'text' },
  to: { label: 'To', kind: 'text' },
  withdrawalId: { label: 'Withdrawal', kind: 'text' },
  customerUserId: { label: 'Customer', kind: 'text' },
  addressChangeControl: { label: 'Two-person control', kind: 'text' },
  withdrawalDailyLimitNormal: { label: 'Daily withdrawal limit (normal)', kind: 'usdtWire' },
  withdrawalMonthlyLimitNormal: { label: 'Monthly withdrawal limit (normal)', kind: 'usdtWire' },
  withdrawalDailyLimitVip: { label: 'Daily withdrawal limit (VIP)', kind: 'usdtWire' },
  withdrawalMonthlyLimitVip: { label: 'Monthly withdrawal limit (VIP)', kind: 'usdtWire' },
  withdrawalMin: { label: 'Minimum withdrawal', kind: 'usdtWire' },
  withdrawalMax: { label: 'Maximum withdrawal', kind: 'usdtWire' },
  tdsPercent: { label: 'TDS (%)', kind: 'text' },
  pan: { label: 'PAN', kind: 'text' },
} as const satisfies Record<string, FieldLook>;

const WORDS: Record<string, string> = {
  pending: 'Pending',
  processing: 'Processing',
  approved: 'Approved',
  rejected: 'Rejected',
  open: 'Open',
  cancelled: 'Cancelled',
  user: 'User',
  admin: 'Admin',
  normal: 'Normal',
  vip: 'VIP',
  vip1: 'VIP 1',
  vip2: 'VIP 2',
  vip3: 'VIP 3',
  qr_trc20: 'TRC20 QR image',
  qr_erc20: 'ERC20 QR image',
  apk: 'App file',
  deposit_address: 'Deposit address change',
  large_withdrawal_approval: 'Large withdrawal approval',
  admin_role_grant: 'Admin role grant',
  admin_role_removal: 'Admin role removal',
  exchange_rates: 'Exchange rates change',
  large_withdrawal_limit: 'Large-withdrawal amount raise',
  app_file: 'New app file',
  deposit_override: 'Deposit the blockchain refutes',
  confirmed: 'Confirmed',
  discarded: 'Discarded',
};

function isKnownField(name: string): name is keyof typeof AUDIT_FIELDS {
  return Object.hasOwn(AUDIT_FIELDS, name);
}

/** "someFieldName" reads "Some field name" when the field is not one we know. */
export function fieldLabel(name: string): string {
  if (isKnownField(name)) return AUDIT_FIELDS[name].label;
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const DIGITS = /^-?\d{1,30}$/;
const DECIMAL = /^-?\d{1,30}(\.\d{1,6})?$/;

function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/** A value as a person reads it: "12.50 USDT", "₹830.00", "VIP", "—" for nothing. */
export function valueText(field: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  const kind: FieldKind = isKnownField(field) ? AUDIT_FIELDS[field].kind : 'text';
  const text = textOf(value);
  switch (kind) {
    case 'usdtMicros':
      if (text !== undefined && DIGITS.test(text)) return `${formatUsdtExact(BigInt(text))} USDT`;
      break;
    case 'inrPaise':
      if (text !== undefined && DIGITS.test(text)) return formatInrForDisplay(BigInt(text));
      break;
    case 'usdtWire':
      if (text !== undefined && DECIMAL.test(text)) return `${formatUsdtExact(usdtMicrosFromWire(text))} USDT`;
      break;
    case 'rateWire':
      if (text !== undefined && /^-?\d{1,30}(\.\d{1,2})?$/.test(text)) return `${formatInrForDisplay(inrPaiseFromWire(text))} per USDT`;
      break;
    case 'inrWire':
      if (text !== undefined && /^-?\d{1,30}(\.\d{1,2})?$/.test(text)) return formatInrForDisplay(inrPaiseFromWire(text));
      break;
    case 'bytes':
      if (typeof value === 'number') return value >= 1024 * 1024 ? `${(value / (1024 * 1024)).toFixed(1)} MB` : `${Math.max(1, Math.round(value / 1024))} KB`;
      break;
    case 'words':
      if (text !== undefined) return WORDS[text] ?? text;
      break;
    case 'list':
      if (Array.isArray(value)) return value.length === 0 ? 'none' : value.map((item) => textOf(item) ?? JSON.stringify(item)).join(', ');
      break;
    case 'text':
      break;
  }
  return text ?? JSON.stringify(value);
}

export interface FieldChange {
  field: string;
  label: string;
  /** Undefined when the entry records only the new value. */
  before: string | undefined;
  after: string | undefined;
}

function fieldsOf(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/**
 * The fields an entry changed, each once, in the order the server wrote them: a field whose value is
 * the same before and after is left out. A before or after that is not an object shows as one "Value" line.
 */
export function changesOf(before: unknown, after: unknown): FieldChange[] {
  const isPlain = (value: unknown) => value !== null && value !== undefined && (typeof value !== 'object' || Array.isArray(value));
  if (isPlain(before) || isPlain(after)) {
    const oldText = before === null || before === undefined ? undefined : (textOf(before) ?? JSON.stringify(before));
    const newText = after === null || after === undefined ? undefined : (textOf(after) ?? JSON.stringify(after));
    return oldText === newText ? [] : [{ field: 'value', label: 'Value', before: oldText, after: newText }];
  }
  const beforeFields = fieldsOf(before);
  const afterFields = fieldsOf(after);
  const names = [...new Set([...Object.keys(beforeFields), ...Object.keys(afterFields)])];
  const changes: FieldChange[] = [];
  for (const name of names) {
    const oldText = name in beforeFields ? valueText(name, beforeFields[name]) : undefined;
    const newText = name in afterFields ? valueText(name, afterFields[name]) : undefined;
    if (oldText === newText) continue;
    changes.push({ field: name, label: fieldLabel(name), before: oldText, after: newText });
  }
  return changes;
}
