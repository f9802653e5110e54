import { z } from 'zod';
import { parseInrPaise, parseRatePaise, parseUsdtMicros, type DecimalParseResult } from '../money.ts';
import { EXAMPLE_PHONE } from '../limits.ts';
import { normalizePhone } from './auth.ts';
import { decimalStringSchema, isoDateTimeSchema } from './common.ts';
import { depositNetworkSchema } from './enums.ts';
import { pendingChangeSchema } from './pending-changes.ts';
import { kycSettingsFormShape, kycSettingsViewShape } from './kyc-settings.ts';
import { withdrawalRulesFormShape, withdrawalRulesViewShape } from './withdrawal-rules.ts';
import { operatorIdentityFormShape, operatorIdentityViewShape } from './operator-identity.ts';
import { payoutFileFormShape, payoutFileViewShape } from './payout-file-formats.ts';

export const SETTINGS_LIMITS = {
  addressLength: 64,
  whatsappMaxDigits: 15,
  websiteUrlLength: 500,
  decimalInputLength: 24,
  qrImageMaxBytes: 2 * 1024 * 1024,
  apkMaxBytes: 200 * 1024 * 1024,
} as const;

/** PNG and JPEG only: the server reads the QR code in the image before it is shown (decision 023). */
export const QR_IMAGE_CONTENT_TYPES = ['image/png', 'image/jpeg'] as const;
export const QR_IMAGE_TYPE_MESSAGE = 'The QR image must be a PNG or JPEG image';

export const SETTINGS_UPDATED_MESSAGE = 'Settings updated successfully';
export const SETTINGS_UPDATE_FAILED_MESSAGE = 'Failed to update settings';
/** A save based on settings that another admin (or an upload) changed since they were loaded: nothing was saved. */
export const SETTINGS_CONFLICT_MESSAGE = 'Settings were changed by another admin meanwhile. Reload to see the current values, then apply your change again.';

/* ---------- reads ---------- */

export const ratesResponseSchema = z.object({
  normalRate: decimalStringSchema,
  vipRate: decimalStringSchema,
  /** Always false from the server: fallback rates exist only in the browser, for display when loading fails. */
  fallback: z.literal(false),
  updatedAt: isoDateTimeSchema,
});
export type RatesResponse = z.infer<typeof ratesResponseSchema>;

export const publicFileSchema = z.object({
  exists: z.boolean(),
  /** Same-origin path of the file, or null when none was uploaded. */
  url: z.string().nullable(),
});

export const publicSettingsResponseSchema = z.object({
  rates: ratesResponseSchema,
  /** An empty string means the network is not set up yet. */
  addresses: z.object({ TRC20: z.string(), ERC20: z.string() }),
  qrImages: z.object({ TRC20: publicFileSchema, ERC20: publicFileSchema }),
  whatsappSupportNumber: z.string(),
  websiteUrl: z.string(),
  minDeposit: decimalStringSchema,
  apk: publicFileSchema.extend({ sizeBytes: z.number().int().nullable() }),
  /** Withdrawals to a newly added bank account pause this many hours (SECURITY_COOLING_OFF_HOURS; 0: no pause). */
  newAccountPauseHours: z.number().int().min(0),
});
export type PublicSettings = z.infer<typeof publicSettingsResponseSchema>;
export type StoredPublicSettings = Omit<PublicSettings, 'newAccountPauseHours'>;

/** What an uploaded file is for: a deposit network's QR image or the Android app. */
export const FILE_PURPOSES = ['qr_trc20', 'qr_erc20', 'apk'] as const;
export type FilePurpose = (typeof FILE_PURPOSES)[number];

export const storedFileSchema = z.object({
  id: z.uuid(),
  purpose: z.enum(FILE_PURPOSES),
  originalName: z.string(),
  contentType: z.string(),
  sizeBytes: z.number().int(),
  sha256: z.string(),
  url: z.string(),
  uploadedAt: isoDateTimeSchema,
});
export type StoredFileView = z.infer<typeof storedFileSchema>;

export const adminSettingsResponseSchema = z.object({
  normalRate: decimalStringSchema,
  vipRate: decimalStringSchema,
  trc20Address: z.string(),
  erc20Address: z.string(),
  whatsappSupportNumber: z.string(),
  websiteUrl: z.string(),
  minDeposit: decimalStringSchema,
  /** Approving a withdrawal worth more than this (INR) needs a second admin while two or more admins exist. */
  largeWithdrawalInr: decimalStringSchema,
  files: z.object({
    trc20Qr: storedFileSchema.nullable(),
    erc20Qr: storedFileSchema.nullable(),
    apk: storedFileSchema.nullable(),
  }),
  updatedAt: isoDateTimeSchema,
  /** The admin who saved last (null before anyone saved). */
  updatedBy: z.object({ id: z.uuid(), name: z.string(), email: z.string() }).nullable(),
  /** Whether the viewer may save: only admins read these settings (VIP customers read the public ones, decision 040). */
  canEdit: z.boolean(),
  ...withdrawalRulesViewShape,
  ...kycSettingsViewShape,
  ...operatorIdentityViewShape,
  ...payoutFileViewShape,
});
export type AdminSettings = z.infer<typeof adminSettingsResponseSchema>;

/* ---------- update ---------- */

function decimalField(label: string, parse: (input: string) => DecimalParseResult, maxDecimals: number) {
  return z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(SETTINGS_LIMITS.decimalInputLength, `${label} is too long`)
    .superRefine((value, context) => {
      if (value.startsWith('-')) {
        context.addIssue({ code: 'custom', message: `${label} must be greater than 0` });
        return;
      }
      const parsed = parse(value);
      if (parsed.ok) {
        if (parsed.value <= 0n) context.addIssue({ code: 'custom', message: `${label} must be greater than 0` });
        return;
      }
      const messages = {
        empty: `${label} is required`,
        'not-a-number': `${label} must be a number`,
        'too-many-decimals': `${label} can have at most ${maxDecimals} decimal places`,
        'too-large': `${label} is too large`,
      } as const;
      context.addIssue({ code: 'custom', message: messages[parsed.reason] });
    });
}

/**
 * Shape checks only; the server also verifies the TRON base58check and EIP-55
 * checksums, which need hashing that this browser-safe module does not carry.
 */
export const trc20AddressSchema = z
  .string({ error: 'TRC20 address is required' })
  .trim()
  .max(SETTINGS_LIMITS.addressLength, 'TRC20 address is too long')
  .refine((value) => value === '' || /^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(value), {
    message: 'TRC20 address must start with T and be 34 characters of base58',
  });

export const erc20AddressSchema = z
  .string({ error: 'ERC20 address is required' })
  .trim()
  .max(SETTINGS_LIMITS.addressLength, 'ERC20 address is too long')
  .refine((value) => value === '' || /^0x[0-9a-fA-F]{40}$/.test(value), {
    message: 'ERC20 address must be 0x followed by 40 hexadecimal characters',
  });

export const whatsappNumberSchema = z
  .string({ error: 'WhatsApp support number is required' })
  .max(40, 'WhatsApp support number is too long')
  .transform(normalizePhone)
  .refine((value) => value === '' || /^\+\d{8,15}$/.test(value), {
    message: `WhatsApp support number must start with + and the country code, then 7 to 14 digits (e.g. ${EXAMPLE_PHONE})`,
  });

export const websiteUrlSchema = z
  .string({ error: 'Website URL is required' })
  .trim()
  .max(SETTINGS_LIMITS.websiteUrlLength, `Website URL must be at most ${SETTINGS_LIMITS.websiteUrlLength} characters`)
  .refine(
    (value) => {
      if (value === '') return true;
      try {
        const url = new URL(value);
        return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '' && url.username === '' && url.password === '';
      } catch {
        return false;
      }
    },
    { message: 'Website URL must be a full http:// or https:// address' },
  );

export const VIP_RATE_BELOW_NORMAL_MESSAGE = 'VIP rate cannot be lower than the normal rate';
/** A rate change larger than this share of the current rate must be confirmed (web dialog, `confirmedLargeRateChange`). */
export const RATE_CHANGE_CONFIRMATION_PERCENT = 5;

/** Both rates as paise, when both parse; undefined otherwise (their own fields then carry the error). */
export function ratesPaiseOf(values: { normalRate: string; vipRate: string }): { normal: bigint; vip: bigint } | undefined {
  const normal = parseRatePaise(values.normalRate.trim());
  const vip = parseRatePaise(values.vipRate.trim());
  return normal.ok && vip.ok ? { normal: normal.value, vip: vip.value } : undefined;
}

function vipRateNotBelowNormalRate(values: { normalRate: string; vipRate: string }, context: z.RefinementCtx): void {
  const rates = ratesPaiseOf(values);
  if (rates && rates.vip < rates.normal) context.addIssue({ code: 'custom', path: ['vipRate'], message: VIP_RATE_BELOW_NORMAL_MESSAGE });
}

/**
 * A rate change that needs confirmation: more than RATE_CHANGE_CONFIRMATION_PERCENT away from the
 * current rate (exactly that much saves without asking). Integer arithmetic on paise, no rounding.
 */
export function isLargeRateChange(currentPaise: bigint, nextPaise: bigint): boolean {
  const difference = nextPaise > currentPaise ? nextPaise - currentPaise : currentPaise - nextPaise;
  return difference * 100n > currentPaise * BigInt(RATE_CHANGE_CONFIRMATION_PERCENT);
}

/** The change in percent with 2 decimals and its sign ("+7.78%"), for the confirmation dialog and the refusal. */
export function rateChangePercentText(currentPaise: bigint, nextPaise: bigint): string {
  const hundredthsOfPercent = ((nextPaise - currentPaise) * 10_000n) / currentPaise;
  const magnitude = hundredthsOfPercent < 0n ? -hundredthsOfPercent : hundredthsOfPercent;
  const sign = hundredthsOfPercent < 0n ? '-' : '+';
  return `${sign}${magnitude / 100n}.${(magnitude % 100n).toString().padStart(2, '0')}%`;
}

export const RATE_LABELS = { normalRate: 'Normal rate', vipRate: 'VIP rate' } as const;

export function largeRateChangeMessage(rate: keyof typeof RATE_LABELS, from: string, to: string): string {
  return `${RATE_LABELS[rate]} changes by more than ${RATE_CHANGE_CONFIRMATION_PERCENT}% (${from} → ${to}). Confirm to save it.`;
}

/**
 * The whole editable settings form ('Save All Settings'). Addresses, the WhatsApp
 * number and the website may be empty (not set up yet); rates and the minimum
 * deposit are always required.
 */
export const settingsFormSchema = z.object({
  normalRate: decimalField('Normal rate', parseRatePaise, 2),
  vipRate: decimalField('VIP rate', parseRatePaise, 2),
  /** Optional for older clients: left out, the current amount stays. */
  largeWithdrawalInr: decimalField('Large withdrawal amount', parseInrPaise, 2).optional(),
  trc20Address: trc20AddressSchema,
  erc20Address: erc20AddressSchema,
  whatsappSupportNumber: whatsappNumberSchema,
  websiteUrl: websiteUrlSchema,
  minDeposit: decimalField('Minimum deposit', (input) => parseUsdtMicros(input), 6),
  ...withdrawalRulesFormShape,
  ...kycSettingsFormShape,
  ...operatorIdentityFormShape,
  ...payoutFileFormShape,
});
export type SettingsFormValues = z.input<typeof settingsFormSchema>;
export type SettingsFormOutput = z.output<typeof settingsFormSchema>;

/**
 * The form plus the version it was edited from: the `updatedAt` of the settings
 * the admin loaded. The server refuses the save (409 CONFLICT) when the settings
 * have changed since, so one admin never silently overwrites another's change.
 */
export const updateSettingsRequestSchema = settingsFormSchema
  .extend({
    expectedUpdatedAt: z.iso.datetime({ error: 'The version of the settings being edited is missing: reload the settings and save again' }),
    /** The admin confirmed a rate change of more than RATE_CHANGE_CONFIRMATION_PERCENT; without it the server refuses such a change. */
    confirmedLargeRateChange: z.boolean().optional(),
  })
  .superRefine(vipRateNotBelowNormalRate);
export type UpdateSettingsRequest = z.input<typeof updateSettingsRequestSchema>;
export type UpdateSettingsInput = z.output<typeof updateSettingsRequestSchema>;

export const updateSettingsResponseSchema = z.object({
  message: z.string(),
  settings: adminSettingsResponseSchema,
});

/** 202: the rest of the form was saved, but the deposit address change waits for a second admin (pending-changes contract). */
export const updateSettingsPendingResponseSchema = updateSettingsResponseSchema.extend({
  pendingChange: pendingChangeSchema,
  /** One per network whose address change waits (both when both addresses changed). */
  pendingChanges: z.array(pendingChangeSchema),
});
export type UpdateSettingsPendingResponse = z.infer<typeof updateSettingsPendingResponseSchema>;

/* ---------- files ---------- */

export const qrNetworkParamsSchema = z.object({ network: depositNetworkSchema });

export const uploadFileResponseSchema = z.object({
  message: z.string(),
  file: storedFileSchema,
  /** The settings version (updatedAt) just before and after the upload, so an open form can tell whether it missed anything else. */
  settingsVersion: z.object({ before: z.string(), after: z.string() }),
});

/** 202 from an APK upload while two admins exist: stored, offered only once a second admin confirms (decision 024). */
export const uploadFilePendingResponseSchema = z.object({ message: z.string(), file: storedFileSchema, pendingChange: pendingChangeSchema });
