import { zodResolver } from '@hookform/resolvers/zod';
import { CheckCircle2, Clock } from 'lucide-react';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link } from 'react-router';
import type { Withdrawal, WithdrawalQuote } from '#shared/contracts/withdrawals';
import type { BankAccount } from '#shared/contracts/bank-accounts';
import type { WalletSummary } from '#shared/contracts/wallet';
import { formatInrForDisplay, usdtMicrosFromWire } from '#shared/money';
import { AppPage } from '../shell/index.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { ActionError } from '../../components/ui/action-error.tsx';
import { OfflineActionNote, useMoneyActionsOffline } from '../../components/ui/offline-action-note.tsx';
import { useActionError } from '../../lib/form-errors.ts';
import { useBankAccounts } from '../bank-accounts/index.ts';
import { usePreselectOnlyPayee } from './use-only-payee.ts';
import { useSecurityPauses } from '../security/index.ts';
import { useWalletSummary } from './api.ts';
import { displayDateTime } from '../../lib/date-format.ts';
import { displayInr, displayUsdt } from './format.ts';
import { WithdrawPinDialog } from './withdraw-pin-dialog.tsx';
import type { WithdrawalLimits } from '#shared/contracts/withdrawal-rules';
import { breakdownSentence, tdsBasisPointsOf, TdsBreakdownRows, useWithdrawalLimits, WithdrawalLimitsNote, type InrBreakdown } from './withdrawal-rules.tsx';
import { confirmedAmountText, requestedUsdtMicros, usdtRequestText, withdrawFormSchema, withdrawPreview, type WithdrawForm } from './withdraw-form-rules.ts';
import { WithdrawAmountField } from './withdraw-amount-field.tsx';
import { useWithdrawalConfirmation, type Confirmation } from './use-withdrawal-confirmation.ts';
import { WithdrawPayeeField } from './withdraw-payee-field.tsx';
import { LoadFailed } from '../../components/ui/load-failed.tsx';
import { KycGateNotice } from '../kyc/index.ts';
import { translate as t } from '../../lib/i18n/i18n.ts';
import { localizeMessage } from '../../lib/i18n/localize-message.ts';

export default function WithdrawPage() {
  const summary = useWalletSummary();
  const [submitted, setSubmitted] = useState<Withdrawal>();

  return (
    <AppPage title={t('withdraw.title')} backTo="/dashboard">
      <KycGateNotice leaving="withdrawals" />
      {summary.isPending ? (
        <Card>
          <CardContent className="flex items-center justify-center gap-3 py-10 text-slate-600">
            <Spinner />
            {t('withdraw.loading')}
          </CardContent>
        </Card>
      ) : summary.isError ? (
        <Card>
          <LoadFailed message={t('dashboard.balanceFailed')} onRetry={() => void summary.refetch()} />
        </Card>
      ) : submitted ? (
        <WithdrawalSubmitted withdrawal={submitted} />
      ) : (
        <>
          <Card>
            <CardContent className="flex items-center justify-between pt-5">
              <span className="text-sm text-slate-500">{t('withdraw.availableBalance')}</span>
              <span className="text-lg font-semibold" data-testid="available-balance">
                {displayUsdt(summary.data.balanceUsdt)}
              </span>
            </CardContent>
          </Card>
          <WithdrawFormCard summary={summary.data} onSubmitted={setSubmitted} />
        </>
      )}
    </AppPage>
  );
}

function WithdrawFormCard({ summary, onSubmitted }: { summary: WalletSummary; onSubmitted: (withdrawal: Withdrawal) => void }) {
  const bankAccounts = useBankAccounts();
  const pauses = useSecurityPauses();
  const offline = useMoneyActionsOffline();
  const limits = useWithdrawalLimits();
  const balanceMicros = usdtMicrosFromWire(summary.balanceUsdt);
  const tdsBasisPoints = tdsBasisPointsOf(limits.data);
  const form = useForm<WithdrawForm>({
    resolver: zodResolver(withdrawFormSchema(balanceMicros, limits.data, summary, tdsBasisPoints)),
    defaultValues: { unit: 'usdt', amount: '', amountInr: '', bankAccountId: '' },
  });
  const [bannerError, setBannerError] = useActionError(form);
  const { errors } = form.formState;
  const [unit, amount, amountInr] = useWatch({ control: form.control, name: ['unit', 'amount', 'amountInr'] });
  // Typed in USDT or in rupees, the preview is of the USDT amount the request will carry.
  const requestedMicros = requestedUsdtMicros({ unit, amount, amountInr }, summary, tdsBasisPoints);
  const preview = withdrawPreview(requestedMicros === undefined ? '' : usdtRequestText(requestedMicros), summary, tdsBasisPoints);
  const accounts = bankAccounts.data?.items ?? [];
  usePreselectOnlyPayee(form, accounts);
  const selectedAccountId = useWatch({ control: form.control, name: 'bankAccountId' });
  const accountPause = pauses.data?.withdrawals ?? undefined;
  const bankAccountPauses = new Map((pauses.data?.bankAccounts ?? []).map((pause) => [pause.bankAccountId, pause]));
  const selectedAccountPause = selectedAccountId ? bankAccountPauses.get(selectedAccountId) : undefined;
  const confirmation = useWithdrawalConfirmation({ form, summary, limits, onSubmitted, setBannerError });

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('withdraw.cardTitle')}</CardTitle>
        <CardDescription>{t('withdraw.cardDescription')}</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={(event) => void confirmation.onRequest(event)} noValidate className="flex flex-col gap-5">
          {accountPause && (
            <Alert variant="destructive" data-testid="withdrawal-pause">
              {localizeMessage(accountPause.message, { until: displayDateTime(accountPause.until) })}
            </Alert>
          )}
          {limits.data && <WithdrawalLimitsNote limits={limits.data} />}
          <WithdrawAmountField form={form} limits={limits.data} summary={summary} tdsBasisPoints={tdsBasisPoints} errors={errors} />
          <InrPreview quote={preview.quote} breakdown={preview.breakdown} tdsPercent={limits.data?.tdsPercent} />
          <WithdrawPayeeField
            form={form}
            bankAccounts={bankAccounts}
            bankAccountPauses={bankAccountPauses}
            selectedAccountPause={selectedAccountPause}
            error={errors.bankAccountId?.message}
          />
          <div className="flex gap-3 rounded-xl border border-slate-200 bg-slate-50 p-3 text-sm text-slate-700">
            <Clock className="mt-0.5 size-4 shrink-0 text-slate-500" aria-hidden />
            <p>
              {t('withdraw.estimate')}. {t('withdraw.howPaid')}
            </p>
          </div>
          <ActionError message={bannerError} />
          <OfflineActionNote />
          <Button
            type="submit"
            disabled={offline || accounts.length === 0 || accountPause !== undefined || selectedAccountPause !== undefined || limits.data?.panRequired === true}
          >
            {t('withdraw.request')}
          </Button>
        </form>
        <WithdrawPinDialog
          open={confirmation.confirming !== undefined}
          onOpenChange={(open) => !open && confirmation.cancel()}
          summary={confirmation.confirming ? pinSummary(confirmation.confirming, accounts, limits.data) : ''}
          onConfirm={confirmation.confirmWithPin}
        />
      </CardContent>
    </Card>
  );
}

/** What the PIN dialog asks to confirm: the amount, its rupees, the payee and, under TDS, the breakdown. */
function pinSummary(confirming: Confirmation, accounts: readonly BankAccount[], limits: WithdrawalLimits | undefined): string {
  const chosenAccount = accounts.find((account) => account.id === confirming.bankAccountId);
  return `${t('withdraw.pinSummary', { amount: confirmedAmountText(confirming.amount) })}${confirming.quote ? t('withdraw.pinSummaryInr', { inr: formatInrForDisplay(confirming.quote.amountInrPaise) }) : ''}${chosenAccount ? t('withdraw.pinSummaryTo', { bank: `${chosenAccount.bankName} ••••${chosenAccount.accountNumberLast4}` }) : ''}.${confirming.breakdown && limits ? ` ${breakdownSentence(confirming.breakdown, limits.tdsPercent)}.` : ''}`;
}

function InrPreview({
  quote,
  breakdown,
  tdsPercent,
}: {
  quote: WithdrawalQuote | undefined;
  breakdown: InrBreakdown | undefined;
  tdsPercent: string | undefined;
}) {
  return (
    <div className="rounded-xl border border-brand-100 bg-brand-50 p-4" aria-live="polite">
      <div className="flex items-center justify-between gap-2">
        <span className="text-sm text-slate-600">{t('withdraw.youWillReceive')}</span>
        {quote?.rateTier === 'vip' && <Badge tone="vip">{t('home.vipRate')}</Badge>}
      </div>
      <p className="text-2xl font-bold text-brand-900" data-testid="inr-preview">
        {breakdown ? formatInrForDisplay(breakdown.netInrPaise) : quote ? formatInrForDisplay(quote.amountInrPaise) : formatInrForDisplay(0n)}
      </p>
      {quote && <p className="text-xs text-slate-600">{t('withdraw.atRate', { rate: formatInrForDisplay(quote.rateInrPaise) })}</p>}
      {breakdown && (
        <p className="text-xs text-slate-600" data-testid="tds-preview">
          {t('withdraw.tdsPreview', {
            gross: formatInrForDisplay(breakdown.grossInrPaise),
            percent: tdsPercent ?? '',
            tds: formatInrForDisplay(breakdown.tdsInrPaise),
          })}
        </p>
      )}
    </div>
  );
}

function WithdrawalSubmitted({ withdrawal }: { withdrawal: Withdrawal }) {
  const rows: [string, string][] = [
    [t('transactions.amount'), displayUsdt(withdrawal.amountUsdt)],
    [t('withdraw.youWillReceive'), displayInr(withdrawal.netInr)],
    [t('withdraw.rate'), t('withdraw.ratePerUsdt', { rate: displayInr(withdrawal.rateInr) })],
    [t('withdraw.bankAccount'), `${withdrawal.bank.bankName} ••••${withdrawal.bank.accountNumberLast4}`],
    [t('transactions.date'), displayDateTime(withdrawal.createdAt)],
  ];
  return (
    <Card>
      <CardHeader className="items-center text-center">
        <CheckCircle2 className="size-12 text-emerald-600" aria-hidden />
        <CardTitle>{t('withdraw.submittedTitle')}</CardTitle>
        <CardDescription>{t('withdraw.estimate')}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {withdrawal.rateTier === 'vip' && (
          <Badge tone="vip" className="self-center">
            {t('home.vipRate')}
          </Badge>
        )}
        <dl className="divide-y divide-slate-100 text-sm">
          {rows.map(([label, value]) => (
            <div key={label} className="flex justify-between gap-4 py-2">
              <dt className="text-slate-500">{label}</dt>
              <dd className="text-right font-medium">{value}</dd>
            </div>
          ))}
          <TdsBreakdownRows withdrawal={withdrawal} />
          <div className="flex justify-between gap-4 py-2">
            <dt className="text-slate-500">{t('transactions.status')}</dt>
            <dd className="font-medium text-amber-700">{t('status.pending')}</dd>
          </div>
        </dl>
        <div className="grid grid-cols-2 gap-3">
          <Button asChild variant="outline">
            <Link to="/dashboard">{t('shell.dashboard')}</Link>
          </Button>
          <Button asChild>
            <Link to="/wallet">{t('deposit.backToWallet')}</Link>
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
