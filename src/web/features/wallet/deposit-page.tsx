import { zodResolver } from '@hookform/resolvers/zod';
import { CheckCircle2, ClipboardPaste } from 'lucide-react';
import { useState, type ComponentProps } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link } from 'react-router';
import { toast } from 'sonner';
import type { z } from 'zod';
import { DEPOSIT_MESSAGES, TRANSACTION_HASH_MAX_LENGTH, depositRequestSchema, minimumDepositMessage, type Deposit } from '#shared/contracts/deposits';
import { formatUsdtShort, parseUsdtMicros, usdtMicrosFromWire } from '#shared/money';
import { AppPage } from '../../components/layout/app-page.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Select } from '../../components/ui/select.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs.tsx';
import { amountField } from '../../lib/amount-input.ts';
import { applySubmissionFailure, useActionError } from '../../lib/form-errors.ts';
import { ActionError } from '../../components/ui/action-error.tsx';
import { usePublicSettings } from '../support/public-settings.ts';
import { submitDeposit, useDeposit, useIdempotencyKeys, useRefreshMoney, useWalletSummary } from './api.ts';
import { customerChainNote, customerChainStatus } from './chain-status.tsx';
import { DepositAddress, DepositNetworkWarning } from './deposit-address.tsx';
import { DepositQrCode } from './deposit-qr-code.tsx';
import { OwnDepositAddress, useOwnDepositAddress } from './own-deposit-address.tsx';
import { displayDateTime, displayInr, displayUsdt } from './format.ts';
import { LoadFailed } from '../../components/ui/load-failed.tsx';
import { useEndOfSessionHandler } from '../auth/use-end-of-session.ts';
import type { DepositNetwork } from '#shared/contracts/enums';
import { translate as t, type MessageKey } from '../../lib/i18n/i18n.ts';
import { localizeMessage } from '../../lib/i18n/localize-message.ts';

type DepositForm = z.input<typeof depositRequestSchema>;
const FIELDS = ['network', 'amount', 'transactionHash'] as const;
const HASH_HELP: Record<DepositNetwork, MessageKey> = {
  TRC20: 'deposit.hashHelpTrc20',
  ERC20: 'deposit.hashHelpErc20',
};

export default function DepositPage() {
  const [submitted, setSubmitted] = useState<Deposit>();
  return (
    <AppPage title={t('deposit.title')} backTo="/wallet">
      <BalanceCard />
      {submitted ? <DepositSubmitted deposit={submitted} /> : <DepositFormCard onSubmitted={setSubmitted} />}
    </AppPage>
  );
}

function BalanceCard() {
  const summary = useWalletSummary();
  return (
    <Card>
      <CardContent className="flex items-center justify-between pt-5">
        <span className="text-sm text-slate-500">{t('deposit.walletBalance')}</span>
        <span className="text-lg font-semibold">{summary.data ? displayUsdt(summary.data.balanceUsdt) : summary.isError ? '—' : '...'}</span>
      </CardContent>
    </Card>
  );
}

function DepositFormCard({ onSubmitted }: { onSubmitted: (deposit: Deposit) => void }) {
  const settings = usePublicSettings();
  const refreshMoney = useRefreshMoney();
  const endOfSession = useEndOfSessionHandler();
  const idempotencyKeys = useIdempotencyKeys();

  const minimumMicros = settings.data ? usdtMicrosFromWire(settings.data.minDeposit) : 0n;
  const schema = depositRequestSchema.superRefine((values, context) => {
    const amount = parseUsdtMicros(values.amount);
    if (amount.ok && amount.value > 0n && amount.value < minimumMicros) {
      context.addIssue({ code: 'custom', path: ['amount'], message: minimumDepositMessage(formatUsdtShort(minimumMicros)) });
    }
  });
  const form = useForm<DepositForm>({ resolver: zodResolver(schema), defaultValues: { network: 'TRC20', amount: '', transactionHash: '' } });
  const [submitError, setSubmitError] = useActionError(form);
  const { errors, isSubmitting } = form.formState;
  const network: DepositNetwork = useWatch({ control: form.control, name: 'network' }) ?? 'TRC20';
  const ownAddress = useOwnDepositAddress(network);

  if (settings.isPending) {
    return (
      <Card>
        <CardContent className="flex items-center justify-center gap-3 py-10 text-slate-600">
          <Spinner />
          {t('deposit.loadingDetails')}
        </CardContent>
      </Card>
    );
  }
  if (settings.isError) {
    return (
      <Card>
        <LoadFailed message={t('deposit.settingsFailed')} onRetry={() => void settings.refetch()} />
      </Card>
    );
  }

  const address = settings.data.addresses[network];

  const onSubmit = form.handleSubmit(async (values) => {
    setSubmitError(undefined);
    try {
      const request = { network: values.network, amount: values.amount, transactionHash: values.transactionHash };
      const answer = await submitDeposit(request, idempotencyKeys.keyFor(request));
      idempotencyKeys.forget();
      toast.success(localizeMessage(answer.message || DEPOSIT_MESSAGES.submitted));
      void refreshMoney();
      onSubmitted(answer.deposit);
    } catch (error) {
      if (endOfSession(error)) return;
      setSubmitError(applySubmissionFailure(form, error, FIELDS, t('deposit.failed')).actionError);
    }
  });

  const hasOwnAddress = ownAddress.data !== undefined && ownAddress.data !== null;
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('deposit.title')}</CardTitle>
        <CardDescription>{hasOwnAddress ? t('deposit.ownAddressIntro') : t('deposit.sharedAddressIntro')}</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} noValidate className="flex flex-col gap-5">
          <FormField label={t('deposit.network')} error={errors.network?.message}>
            <Select disabled={isSubmitting} {...form.register('network')}>
              <option value="TRC20">{t('deposit.trc20Recommended')}</option>
              <option value="ERC20">ERC20</option>
            </Select>
          </FormField>

          {ownAddress.isPending ? (
            <div className="flex justify-center py-8">
              <Spinner label={t('deposit.loadingOwnAddress')} />
            </div>
          ) : ownAddress.isError ? (
            <LoadFailed message={t('deposit.ownAddressFailed')} onRetry={() => void ownAddress.refetch()} />
          ) : ownAddress.data ? (
            <OwnDepositAddress ownAddress={ownAddress.data} minimumUsdt={formatUsdtShort(minimumMicros)} />
          ) : (
            <>
              <Tabs defaultValue="address">
                <TabsList aria-label={t('deposit.addressViews')}>
                  <TabsTrigger value="address">{t('deposit.walletAddress')}</TabsTrigger>
                  <TabsTrigger value="qr">{t('deposit.qrCode')}</TabsTrigger>
                </TabsList>
                <TabsContent value="address">
                  {address === '' ? (
                    <p role="status" className="rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
                      {localizeMessage(DEPOSIT_MESSAGES.networkUnavailable)}
                    </p>
                  ) : (
                    <DepositAddress network={network} address={address} />
                  )}
                  <DepositNetworkWarning network={network} />
                </TabsContent>
                <TabsContent value="qr">
                  <DepositQrCode network={network} address={address} />
                </TabsContent>
              </Tabs>

              <FormField label={t('deposit.amountUsdt')} error={errors.amount?.message} help={t('deposit.minimum', { amount: formatUsdtShort(minimumMicros) })}>
                <Input
                  inputMode="decimal"
                  autoComplete="off"
                  maxLength={24}
                  placeholder="0.00"
                  disabled={isSubmitting}
                  {...amountField(form.register('amount'))}
                />
              </FormField>
              <FormField label={t('deposit.transactionHash')} error={errors.transactionHash?.message} help={t(HASH_HELP[network])}>
                <HashInput
                  disabled={isSubmitting}
                  onPasted={(text) => form.setValue('transactionHash', text, { shouldValidate: form.formState.isSubmitted })}
                  {...form.register('transactionHash')}
                />
              </FormField>

              <ActionError message={submitError} heading={t('deposit.errorHeading')} />

              <Button type="submit" disabled={isSubmitting || address === ''} aria-busy={isSubmitting}>
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
          )}
        </form>
      </CardContent>
    </Card>
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

function DepositSubmitted({ deposit: submitted }: { deposit: Deposit }) {
  // Followed live (events refresh it; a slow poll covers a lost stream) until the chain or an admin settles it.
  const live = useDeposit(submitted.id);
  const deposit = live.data ?? submitted;
  const chainStatus = customerChainStatus(deposit.status, deposit.chain);
  const chainNote = customerChainNote(deposit.status, deposit.chain);
  const credited = deposit.status === 'approved';
  const rows: [string, string][] = [
    [t('transactions.amount'), displayUsdt(deposit.amount)],
    [t('deposit.approximately'), displayInr(deposit.estimatedInr)],
    [t('deposit.transactionHash'), deposit.transactionHash],
    [t('transactions.date'), displayDateTime(deposit.createdAt)],
    [t('deposit.network'), deposit.network],
  ];
  return (
    <Card>
      <CardHeader className="items-center text-center">
        <CheckCircle2 className="size-12 text-emerald-600" aria-hidden />
        <CardTitle>{t('deposit.submittedTitle')}</CardTitle>
        <CardDescription>{deposit.chain.state === 'unchecked' && !deposit.chain.delayed ? t('deposit.adminChecks') : t('deposit.weCheck')}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <dl className="divide-y divide-slate-100 text-sm">
          {rows.map(([label, value]) => (
            <div key={label} className="flex justify-between gap-4 py-2">
              <dt className="text-slate-500">{label}</dt>
              <dd className="min-w-0 break-all text-right font-medium">{value}</dd>
            </div>
          ))}
          <div className="flex flex-col gap-2 py-2">
            <div className="flex justify-between gap-4">
              <dt className="text-slate-500">{t('transactions.status')}</dt>
              <dd role="status" aria-live="polite" className={credited ? 'font-medium text-emerald-700' : 'font-medium text-amber-700'}>
                {chainStatus ?? (deposit.status === 'rejected' ? t('status.rejected') : t('deposit.pendingApproval'))}
              </dd>
            </div>
            <div className="h-2 overflow-hidden rounded-full bg-slate-100" aria-hidden>
              <div className={credited ? 'h-full w-full rounded-full bg-emerald-500' : 'h-full w-1/2 rounded-full bg-amber-500'} />
            </div>
            {chainNote && <p className="text-xs text-slate-600">{chainNote}</p>}
          </div>
        </dl>
        <Button asChild>
          <Link to="/wallet">{t('deposit.backToWallet')}</Link>
        </Button>
      </CardContent>
    </Card>
  );
}
