import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import type { AdminSettings, UpdateSettingsRequest } from '#shared/contracts/settings';
import { formatUsdtShort, usdtMicrosFromWire } from '#shared/money';
import { kycSettingsFormValues } from './kyc-settings-section.tsx';
import { operatorIdentityFormValues } from './operator-identity-section.tsx';
import { payoutFileFormValues } from './payout-file-section.tsx';
import { withdrawalRulesFormValues } from './withdrawal-rules-section.tsx';

/** The form's values, with the version they are (expectedUpdatedAt): a reset always replaces both together. */
export function formValuesOf(settings: AdminSettings): UpdateSettingsRequest {
  return {
    expectedUpdatedAt: settings.updatedAt,
    normalRate: settings.normalRate,
    vipRate: settings.vipRate,
    largeWithdrawalInr: settings.largeWithdrawalInr,
    trc20Address: settings.trc20Address,
    erc20Address: settings.erc20Address,
    whatsappSupportNumber: settings.whatsappSupportNumber,
    websiteUrl: settings.websiteUrl,
    // The wire form has 6 decimals ("10.000000"); the form shows "10".
    minDeposit: formatUsdtShort(usdtMicrosFromWire(settings.minDeposit)),
    ...withdrawalRulesFormValues(settings),
    ...kycSettingsFormValues(settings),
    ...operatorIdentityFormValues(settings),
    ...payoutFileFormValues(settings),
  };
}

/** What each section of the settings form gets: the form's fields, their errors, and whether a save is under way. */
export type SettingsSectionProps = {
  register: UseFormRegister<UpdateSettingsRequest>;
  errors: FieldErrors<UpdateSettingsRequest>;
  disabled: boolean;
};
