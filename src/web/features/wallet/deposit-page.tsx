import { zodResolver } from '@hookform/resolvers/zod';
import { CheckCircle2 } from 'lucide-react';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link } from 'react-router';
import type { Deposit } from '#shared/contracts/deposits';
import { formatUsdtShort, usdtMicrosFromWire } from '#shared/money';
import { AppPage } from '../shell/index.ts';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Select } from '../../components/ui/select.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { usePublicSettings } from '../support/index.ts';
import { useDeposit, useWalletSummary } from './api.ts';
import { customerChainNote, customerChainStatus } from './chain-status.tsx';
import { OwnDepositAddress, useOwnDepositAddress } from './own-deposit-address.tsx';
import { displayDateTime } from '../../lib/date-format.ts';
import { displayInr, displayUsdt } from './format.ts';
import { LoadFailed } from '../../components/ui/load-failed.tsx';
import type { DepositNetwork } from '#shared/contracts/enums';
import { translate as t } from '../../lib/i18n/i18n.ts';
import { depositFormSchema, useDepositSubmission, type DepositForm } from './use-deposit-submission.ts';
import { SharedDepositAddress } from './shared-deposit-address.tsx';
import { DepositClaimFields } from './deposit-claim-fields.tsx';

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
  const minimumMicros = settings.data ? usdtMicrosFromWire(settings.data.minDeposit) : 0n;
  const form = useForm<DepositForm>({
    resolver: zodResolver(depositFormSchema(minimumMicros)),
    defaultValues: { network: 'TRC20', amount: '', transactionHash: '' },
  });
  const { onSubmit, submitError } = useDepositSubmission(form, onSubmitted);
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
              <SharedDepositAddress network={network} address={address} />
              <DepositClaimFields
                form={form}
                network={network}
                minimumUsdt={formatUsdtShort(minimumMicros)}
                addressMissing={address === ''}
                submitError={submitError}
              />
            </>
          )}
        </form>
      </CardContent>
    </Card>
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
