import type { FieldErrors } from 'react-hook-form';
import type { SettingsFormValues, UpdateSettingsRequest } from '#shared/contracts/settings';
import { TabsList, TabsTrigger } from '../../../components/ui/tabs.tsx';

type FieldName = keyof SettingsFormValues;
export type TabName = 'rates' | 'addresses' | 'support' | 'withdrawals' | 'app';

const TAB_OF_FIELD: Record<FieldName, TabName> = {
  normalRate: 'rates',
  vipRate: 'rates',
  largeWithdrawalInr: 'rates',
  trc20Address: 'addresses',
  erc20Address: 'addresses',
  whatsappSupportNumber: 'support',
  websiteUrl: 'support',
  minDeposit: 'support',
  withdrawalLimits: 'withdrawals',
  withdrawalMinUsdt: 'withdrawals',
  withdrawalMaxUsdt: 'withdrawals',
  tdsPercent: 'withdrawals',
  kycLevelLimits: 'withdrawals',
  tdsNoPanPercent: 'withdrawals',
  kycRefreshMonths: 'withdrawals',
  recordRetentionYears: 'withdrawals',
  operatorIdentity: 'support',
  payoutFile: 'withdrawals',
};
export const FIELD_NAMES = Object.keys(TAB_OF_FIELD) as FieldName[];
const TAB_LABELS: Record<TabName, string> = {
  rates: 'Exchange Rates',
  addresses: 'Wallet Addresses',
  support: 'Support',
  withdrawals: 'Withdrawals & TDS',
  app: 'App Download',
};
const TAB_ORDER: TabName[] = ['rates', 'addresses', 'support', 'withdrawals', 'app'];

/** The first tab, in the order shown, holding a field with an error. */
export function firstTabWithError(errors: FieldErrors<UpdateSettingsRequest>): TabName | undefined {
  return TAB_ORDER.find((tab) => FIELD_NAMES.some((name) => TAB_OF_FIELD[name] === tab && errors[name]));
}

/** The first tab, in the order shown, holding one of the fields the server refused. */
export function firstTabOfFields(fields: readonly string[]): TabName | undefined {
  return TAB_ORDER.find((name) => fields.some((field) => TAB_OF_FIELD[field as FieldName] === name));
}

/** The settings' tabs, each marked when one of its fields has an error. */
export function SettingsTabsList({ errors }: { errors: FieldErrors<UpdateSettingsRequest> }) {
  const tabHasError = (name: TabName) => FIELD_NAMES.some((field) => TAB_OF_FIELD[field] === name && errors[field]);
  return (
    <TabsList className="grid h-auto grid-cols-2 gap-1 sm:inline-flex">
      {TAB_ORDER.map((name) => (
        <TabsTrigger key={name} value={name}>
          {TAB_LABELS[name]}
          {tabHasError(name) && (
            <>
              <span className="ml-1 inline-block size-2 rounded-full bg-red-500" aria-hidden />
              <span className="sr-only"> (has errors)</span>
            </>
          )}
        </TabsTrigger>
      ))}
    </TabsList>
  );
}
