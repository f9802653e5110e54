import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import {
  BANK_ACCOUNT_LIMITS,
  BANK_ACCOUNT_MESSAGES,
  accountHolderNameSchema,
  accountNumberSchema,
  ifscCodeSchema,
  upiIdSchema,
  type BankAccount,
  type BankAccountUpdate,
} from '#shared/contracts/bank-accounts';
import { ActionError } from '../../components/ui/action-error.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogContent } from '../../components/ui/dialog.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { applySubmissionFailure, useActionError } from '../../lib/form-errors.ts';
import { SECURITY_PAUSES_QUERY_KEY } from '../security/index.ts';
import { addBankAccount, BANK_ACCOUNTS_QUERY_KEY, updateBankAccount, useBankAccounts } from './api.ts';
import { IfscBankLine, useIfscLookup } from './ifsc-bank-line.tsx';
import { translate as t } from '../../lib/i18n/i18n.ts';
import { localizeMessage } from '../../lib/i18n/localize-message.ts';

const FIELDS = ['accountHolderName', 'accountNumber', 'accountNumberConfirmation', 'ifscCode', 'upiId'] as const;
const withoutSpaces = (value: string) => value.replace(/\s+/g, '');

/**
 * The shared schema, except that on edit the account number may stay empty:
 * the stored one is shown only by its last 4 digits, and empty keeps it.
 */
function bankAccountFormSchema(editing: boolean) {
  return z
    .object({
      accountHolderName: accountHolderNameSchema,
      accountNumber: z.string().superRefine((value, context) => {
        if (editing && value.trim() === '') return;
        const parsed = accountNumberSchema.safeParse(value);
        if (!parsed.success) context.addIssue({ code: 'custom', message: parsed.error.issues[0]?.message ?? BANK_ACCOUNT_MESSAGES.accountNumberTooShort });
      }),
      // Asked twice, as banks do (decision 044); the server compares them again.
      accountNumberConfirmation: z.string(),
      ifscCode: ifscCodeSchema,
      upiId: upiIdSchema,
    })
    .superRefine((values, context) => {
      const typed = withoutSpaces(values.accountNumber);
      if (typed !== '' && typed !== withoutSpaces(values.accountNumberConfirmation)) {
        context.addIssue({ code: 'custom', path: ['accountNumberConfirmation'], message: BANK_ACCOUNT_MESSAGES.confirmationMismatch });
      }
    });
}
type BankAccountForm = z.input<ReturnType<typeof bankAccountFormSchema>>;

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
  const queryClient = useQueryClient();
  const form = useForm<BankAccountForm>({
    // raw: the values stay as typed; the server applies the same schema's clean-up (trim, upper-case IFSC).
    resolver: zodResolver(bankAccountFormSchema(account !== undefined), undefined, { raw: true }),
    defaultValues: {
      accountHolderName: account?.accountHolderName ?? '',
      accountNumber: '',
      accountNumberConfirmation: '',
      ifscCode: account?.ifscCode ?? '',
      upiId: account?.upiId ?? '',
    },
  });
  // One message per failure: at the field it is about, or once near the button.
  const [submitError, setSubmitError] = useActionError(form);
  const { errors, isSubmitting } = form.formState;
  const failureTitle = account ? t('bank.updateFailed') : t('bank.addFailed');
  const ifscCode = useWatch({ control: form.control, name: 'ifscCode' });
  const ifsc = useIfscLookup(ifscCode);
  // The list is already loaded on the page that opens this dialog; its answer says how long a new account pauses.
  const listed = useBankAccounts().data;
  const newAccountPauseHours = listed?.newAccountPauseHours ?? 0;

  const onSubmit = form.handleSubmit(async (values) => {
    setSubmitError(undefined);
    onBusyChange(true);
    try {
      if (account) {
        const changes = changedFields(account, values);
        if (Object.keys(changes).length > 0) {
          const answer = await updateBankAccount(account.id, changes);
          toast.success(localizeMessage(answer.message || BANK_ACCOUNT_MESSAGES.updated));
        }
      } else {
        const answer = await addBankAccount({ ...values, upiId: emptyToNull(values.upiId) });
        toast.success(localizeMessage(answer.message || BANK_ACCOUNT_MESSAGES.added));
      }
      // A new account, or changed details, starts a security pause on withdrawals to it.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: BANK_ACCOUNTS_QUERY_KEY }),
        queryClient.invalidateQueries({ queryKey: SECURITY_PAUSES_QUERY_KEY }),
      ]);
      onDone();
    } catch (error) {
      setSubmitError(applySubmissionFailure(form, error, FIELDS, failureTitle).actionError);
    } finally {
      onBusyChange(false);
    }
  });

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
      {account === undefined && newAccountPauseHours > 0 && (
        <Alert variant="info" data-testid="new-account-pause">
          {t('bank.newAccountPause', { hours: newAccountPauseHours })}
        </Alert>
      )}
      {listed?.checkedWithBank === true && (
        <Alert variant="info" data-testid="bank-check-notice">
          {t('bank.checkNotice')}
        </Alert>
      )}
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

/** Only what the customer changed is sent (the values were already checked by the form schema). */
function changedFields(account: BankAccount, values: BankAccountForm): BankAccountUpdate {
  const changes: BankAccountUpdate = {};
  const holder = values.accountHolderName.trim();
  const ifsc = values.ifscCode.trim().toUpperCase();
  const upi = emptyToNull(values.upiId);
  if (holder !== account.accountHolderName) changes.accountHolderName = holder;
  if (ifsc !== account.ifscCode) changes.ifscCode = ifsc;
  if (upi !== account.upiId) changes.upiId = upi;
  if (values.accountNumber.trim() !== '') {
    changes.accountNumber = values.accountNumber;
    changes.accountNumberConfirmation = values.accountNumberConfirmation;
  }
  return changes;
}

function emptyToNull(value: string | null | undefined): string | null {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}
