import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import { BANK_ACCOUNT_LIMITS, type BankAccount } from '#shared/contracts/bank-accounts';
import { ActionError } from '../../components/ui/action-error.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogContent } from '../../components/ui/dialog.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { useBankAccounts } from './api.ts';
import { IfscBankLine, useIfscLookup } from './ifsc-bank-line.tsx';
import { translate as t } from '../../lib/i18n/i18n.ts';
import { useBankAccountForm } from './use-bank-account-form.ts';

/** Add Account (no `account`) or Edit (pre-filled from `account`); modal and busy while saving. */
export function BankAccountFormDialog({ open, onOpenChange, account }: { open: boolean; onOpenChange: (open: boolean) => void; account?: BankAccount }) {
  const [busy, setBusy] = useState(false);
  return (
    <Dialog open={open} onOpenChange={(next) => !busy && onOpenChange(next)}>
      <DialogContent
        title={account ? t('bank.editTitle') : t('bank.addTitle')}
        description={account ? t('bank.editDescription') : t('bank.addDescription')}
        onInteractOutside={(event) => busy && event.preventDefault()}
      >
        <BankAccountForm account={account} onBusyChange={setBusy} onDone={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

function BankAccountForm({ account, onBusyChange, onDone }: { account: BankAccount | undefined; onBusyChange: (busy: boolean) => void; onDone: () => void }) {
  const { form, submitError, onSubmit } = useBankAccountForm({ account, onBusyChange, onDone });
  const { errors, isSubmitting } = form.formState;
  const ifscCode = useWatch({ control: form.control, name: 'ifscCode' });
  const ifsc = useIfscLookup(ifscCode);

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" aria-busy={isSubmitting}>
      <fieldset disabled={isSubmitting} className="flex flex-col gap-4">
        <FormField label={t('bank.holderName')} error={errors.accountHolderName?.message}>
          <Input autoComplete="name" maxLength={BANK_ACCOUNT_LIMITS.nameMaxLength} {...form.register('accountHolderName')} />
        </FormField>
        <FormField
          label={t('bank.accountNumber')}
          error={errors.accountNumber?.message}
          help={
            account
              ? t('bank.endingInKeep', { last4: account.accountNumberLast4 })
              : t('bank.digits', { minimum: BANK_ACCOUNT_LIMITS.accountNumberMinDigits, maximum: BANK_ACCOUNT_LIMITS.accountNumberMaxDigits })
          }
        >
          <Input
            inputMode="numeric"
            autoComplete="off"
            maxLength={30}
            placeholder={account ? `••••${account.accountNumberLast4}` : undefined}
            {...form.register('accountNumber')}
          />
        </FormField>
        <FormField label={t('bank.confirmAccountNumber')} error={errors.accountNumberConfirmation?.message} help={t('bank.typeAgain')}>
          <Input inputMode="numeric" autoComplete="off" maxLength={30} {...form.register('accountNumberConfirmation')} />
        </FormField>
        <FormField label={t('bank.ifscCode')} error={errors.ifscCode?.message ?? ifsc.fieldError} help={t('bank.ifscHelp')}>
          <Input
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={BANK_ACCOUNT_LIMITS.ifscLength}
            className="uppercase"
            {...form.register('ifscCode')}
          />
        </FormField>
        <IfscBankLine ifsc={ifsc} />
        <FormField label={t('bank.upiOptional')} error={errors.upiId?.message} help={t('bank.upiHelp')}>
          <Input autoComplete="off" autoCapitalize="off" spellCheck={false} maxLength={BANK_ACCOUNT_LIMITS.upiMaxLength} {...form.register('upiId')} />
        </FormField>
      </fieldset>
      <BankAccountNotices adding={account === undefined} />
      <ActionError message={submitError} />
      <div className="flex justify-end gap-2">
        <Button variant="outline" disabled={isSubmitting} onClick={onDone}>
          {t('bank.cancel')}
        </Button>
        <Button type="submit" disabled={isSubmitting} aria-busy={isSubmitting}>
          {isSubmitting ? t('bank.saving') : account ? t('bank.saveChanges') : t('bank.addAccount')}
        </Button>
      </div>
    </form>
  );
}

/** Notices under the fields: the pause on withdrawals to a new account, and the check of the details with the bank. */
function BankAccountNotices({ adding }: { adding: boolean }) {
  // The list is already loaded on the page that opens this dialog; its answer says how long a new account pauses.
  const listed = useBankAccounts().data;
  const newAccountPauseHours = listed?.newAccountPauseHours ?? 0;
  return (
    <>
      {adding && newAccountPauseHours > 0 && (
        <Alert variant="info" data-testid="new-account-pause">
          {t('bank.newAccountPause', { hours: newAccountPauseHours })}
        </Alert>
      )}
      {listed?.checkedWithBank === true && (
        <Alert variant="info" data-testid="bank-check-notice">
          {t('bank.checkNotice')}
        </Alert>
      )}
    </>
  );
}
