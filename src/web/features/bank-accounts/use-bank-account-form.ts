import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import {
  BANK_ACCOUNT_MESSAGES,
  accountHolderNameSchema,
  accountNumberSchema,
  ifscCodeSchema,
  upiIdSchema,
  type BankAccount,
  type BankAccountUpdate,
} from '#shared/contracts/bank-accounts';
import { applySubmissionFailure, useActionError } from '../../lib/form-errors.ts';
import { translate as t } from '../../lib/i18n/i18n.ts';
import { localizeMessage } from '../../lib/i18n/localize-message.ts';
import { SECURITY_PAUSES_QUERY_KEY } from '../security/index.ts';
import { addBankAccount, BANK_ACCOUNTS_QUERY_KEY, updateBankAccount } from './api.ts';

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
type BankAccountFormValues = z.input<ReturnType<typeof bankAccountFormSchema>>;

/**
 * The bank account form's fields and its submission: an add sends everything, an edit only what
 * changed; both end by reading the accounts and the security pauses again.
 */
export function useBankAccountForm({
  account,
  onBusyChange,
  onDone,
}: {
  account: BankAccount | undefined;
  onBusyChange: (busy: boolean) => void;
  onDone: () => void;
}) {
  const queryClient = useQueryClient();
  const form = useForm<BankAccountFormValues>({
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
  const failureTitle = account ? t('bank.updateFailed') : t('bank.addFailed');

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

  return { form, submitError, onSubmit };
}

/** Only what the customer changed is sent (the values were already checked by the form schema). */
function changedFields(account: BankAccount, values: BankAccountFormValues): BankAccountUpdate {
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
