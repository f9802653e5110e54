import { ClipboardPaste } from 'lucide-react';
import { useState, type ComponentProps } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { Link } from 'react-router';
import { TRANSACTION_HASH_MAX_LENGTH } from '#shared/contracts/deposits';
import type { DepositNetwork } from '#shared/contracts/enums';
import { ActionError } from '../../components/ui/action-error.tsx';
import { Button } from '../../components/ui/button.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { amountField } from '../../lib/amount-input.ts';
import { translate as t, type MessageKey } from '../../lib/i18n/i18n.ts';
import type { DepositForm } from './use-deposit-submission.ts';

const HASH_HELP: Record<DepositNetwork, MessageKey> = {
  TRC20: 'deposit.hashHelpTrc20',
  ERC20: 'deposit.hashHelpErc20',
};

/** What a customer sending to the shared address claims: the amount and the transaction hash, then the submit. */
export function DepositClaimFields({
  form,
  network,
  minimumUsdt,
  addressMissing,
  submitError,
}: {
  form: UseFormReturn<DepositForm>;
  network: DepositNetwork;
  minimumUsdt: string;
  addressMissing: boolean;
  submitError: string | undefined;
}) {
  const { errors, isSubmitting } = form.formState;
  return (
    <>
      <FormField label={t('deposit.amountUsdt')} error={errors.amount?.message} help={t('deposit.minimum', { amount: minimumUsdt })}>
        <Input inputMode="decimal" autoComplete="off" maxLength={24} placeholder="0.00" disabled={isSubmitting} {...amountField(form.register('amount'))} />
      </FormField>
      <FormField label={t('deposit.transactionHash')} error={errors.transactionHash?.message} help={t(HASH_HELP[network])}>
        <HashInput
          disabled={isSubmitting}
          onPasted={(text) => form.setValue('transactionHash', text, { shouldValidate: form.formState.isSubmitted })}
          {...form.register('transactionHash')}
        />
      </FormField>

      <ActionError message={submitError} heading={t('deposit.errorHeading')} />

      <Button type="submit" disabled={isSubmitting || addressMissing} aria-busy={isSubmitting}>
        {isSubmitting ? t('deposit.submitting') : t('deposit.submit')}
      </Button>
      <p className="text-center text-xs text-slate-500">
        {t('deposit.ownWalletBefore')}{' '}
        <Link to="/wallet/wallets" className="font-medium text-brand-700 hover:underline">
          {t('deposit.ownWalletLink')}
        </Link>{' '}
        {t('deposit.ownWalletAfter')}
      </p>
    </>
  );
}

/** The hash field with a Paste button beside it; the id and aria attributes from FormField go to the input. */
function HashInput({ onPasted, disabled, ...inputProps }: ComponentProps<typeof Input> & { onPasted: (text: string) => void }) {
  const [pasteFailed, setPasteFailed] = useState(false);
  const paste = async () => {
    try {
      onPasted((await navigator.clipboard.readText()).trim().slice(0, TRANSACTION_HASH_MAX_LENGTH));
      setPasteFailed(false);
    } catch {
      setPasteFailed(true);
    }
  };
  return (
    <div className="flex flex-col gap-1">
      <div className="flex gap-2">
        <Input
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          maxLength={TRANSACTION_HASH_MAX_LENGTH}
          className="min-w-0 flex-1 font-mono text-sm"
          disabled={disabled}
          {...inputProps}
        />
        <Button variant="outline" disabled={disabled} onClick={() => void paste()}>
          <ClipboardPaste aria-hidden />
          {t('deposit.paste')}
        </Button>
      </div>
      {pasteFailed && <p className="text-xs text-slate-600">{t('deposit.pasteFailed')}</p>}
    </div>
  );
}
