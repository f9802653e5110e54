import { Landmark } from 'lucide-react';
import type { UseFormReturn } from 'react-hook-form';
import { Link } from 'react-router';
import type { UseQueryResult } from '@tanstack/react-query';
import type { z } from 'zod';
import { payeeRefusal, type bankAccountListResponseSchema } from '#shared/contracts/bank-accounts';
import type { SecurityPauses } from '#shared/contracts/security';
import { Alert } from '../../components/ui/alert.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Select } from '../../components/ui/select.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { translate as t } from '../../lib/i18n/i18n.ts';
import { localizeMessage } from '../../lib/i18n/localize-message.ts';
import { displayDateTime } from '../../lib/date-format.ts';
import type { WithdrawForm } from './withdraw-form-rules.ts';

type BankAccountPause = SecurityPauses['bankAccounts'][number];

/** The payee of the withdrawal: the saved accounts (those that cannot receive disabled), the chosen one's pause, and the way to manage them. */
export function WithdrawPayeeField({
  form,
  bankAccounts,
  bankAccountPauses,
  selectedAccountPause,
  error,
}: {
  form: UseFormReturn<WithdrawForm>;
  bankAccounts: UseQueryResult<z.infer<typeof bankAccountListResponseSchema>>;
  bankAccountPauses: ReadonlyMap<string, BankAccountPause>;
  selectedAccountPause: BankAccountPause | undefined;
  error: string | undefined;
}) {
  return (
    <div className="flex flex-col gap-1.5">
      {bankAccounts.isPending ? (
        <Spinner label={t('withdraw.loadingBankAccounts')} />
      ) : bankAccounts.isError ? (
        <p className="text-sm text-red-700">{t('withdraw.bankAccountsFailed')}</p>
      ) : bankAccounts.data.items.length === 0 ? (
        <p className="rounded-lg border border-slate-200 bg-slate-50 p-3 text-sm text-slate-600">{t('withdraw.addBankAccountFirst')}</p>
      ) : (
        <FormField label={t('withdraw.bankAccount')} error={error}>
          <Select {...form.register('bankAccountId')}>
            <option value="">{t('withdraw.selectBankAccount')}</option>
            {bankAccounts.data.items.map((account) => (
              <option key={account.id} value={account.id} disabled={payeeRefusal(account, bankAccounts.data.checkedWithBank) !== undefined}>
                {account.bankName} ••••{account.accountNumberLast4} ({account.accountHolderName}){bankAccountPauses.has(account.id) ? t('withdraw.paused') : ''}
                {account.flaggedAt !== null ? t('withdraw.payoutFailed', { reason: account.flagReason ?? t('withdraw.accountProblem') }) : ''}
                {account.flaggedAt === null && payeeRefusal(account, bankAccounts.data.checkedWithBank) !== undefined ? t('withdraw.payeeNotConfirmed') : ''}
              </option>
            ))}
          </Select>
        </FormField>
      )}
      {selectedAccountPause && (
        <Alert variant="destructive" data-testid="bank-account-pause">
          {localizeMessage(selectedAccountPause.message, { until: displayDateTime(selectedAccountPause.until) })}
        </Alert>
      )}
      <Link to="/bank-accounts" className="inline-flex items-center gap-1 self-start py-1 text-sm font-medium text-brand-700 hover:underline">
        <Landmark className="size-4" aria-hidden />
        {t('withdraw.manageBankAccounts')}
      </Link>
    </div>
  );
}
