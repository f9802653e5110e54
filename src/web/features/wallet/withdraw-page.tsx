import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, Clock, Landmark } from 'lucide-react';
import { useState, type ComponentProps, type ReactNode } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { z } from 'zod';
import {
  WITHDRAWAL_DECIMALS,
  WITHDRAWAL_MESSAGES,
  quoteWithdrawal,
  withdrawalAmountSchema,
  type Withdrawal,
  type WithdrawalQuote,
} from '#shared/contracts/withdrawals';
import { payeeRefusal } from '#shared/contracts/bank-accounts';
import type { WalletSummary } from '#shared/contracts/wallet';
import {
  formatDecimal,
  formatInrForDisplay,
  formatUsdtExact,
  inrPaiseFromWire,
  inrPaiseToWire,
  parseUsdtMicros,
  USDT_DECIMALS,
  usdtMicrosFromWire,
} from '#shared/money';
import { AppPage } from '../../components/layout/app-page.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Select } from '../../components/ui/select.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { ActionError } from '../../components/ui/action-error.tsx';
import { OfflineActionNote, useMoneyActionsOffline } from '../../components/ui/offline-action-note.tsx';
import { ApiError } from '../../lib/api.ts';
import { amountField } from '../../lib/amount-input.ts';
import { applySubmissionFailure, useActionError } from '../../lib/form-errors.ts';
import { QUERY_KEYS } from '../../lib/query-keys.ts';
import { useBankAccounts } from '../bank-accounts/api.ts';
import { usePreselectOnlyPayee } from './use-only-payee.ts';
import { requestWithdrawal, useIdempotencyKeys, useRefreshMoney, useSecurityPauses, useWalletSummary } from './api.ts';
import { displayDateTime, displayInr, displayUsdt } from './format.ts';
import { WithdrawPinDialog, type PinCheckOutcome } from './withdraw-pin-dialog.tsx';
import { WITHDRAWAL_RULE_MESSAGES, type WithdrawalLimits } from '#shared/contracts/withdrawal-rules';
import {
  breakdownOf,
  breakdownSentence,
  tdsBasisPointsOf,
  TdsBreakdownRows,
  useWithdrawalLimits,
  WithdrawalLimitsNote,
  type InrBreakdown,
} from './withdrawal-rules.tsx';
import { LoadFailed } from '../../components/ui/load-failed.tsx';
import { KycGateNotice } from '../kyc/index.ts';
import { useEndOfSessionHandler } from '../auth/use-end-of-session.ts';
import { translate as t } from '../../lib/i18n/i18n.ts';
import { localizeMessage } from '../../lib/i18n/localize-message.ts';

const FIELDS = ['amount', 'bankAccountId'] as const;
type WithdrawForm = { amount: string; bankAccountId: string };
/** What the PIN dialog asks the customer to confirm: the form and the INR amount shown when it opened. */
type Confirmation = WithdrawForm & { quote: WithdrawalQuote | undefined; breakdown: InrBreakdown | undefined };

/** The amount as every other screen writes it ("100.00"), not as typed ("100"). */
function confirmedAmountText(typed: string): string {
  const parsed = parseUsdtMicros(typed.trim());
  return parsed.ok ? formatUsdtExact(parsed.value) : typed.trim();
}

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
  const queryClient = useQueryClient();
  const bankAccounts = useBankAccounts();
  const pauses = useSecurityPauses();
  const refreshMoney = useRefreshMoney();
  const endOfSession = useEndOfSessionHandler();
  const idempotencyKeys = useIdempotencyKeys();
  const [confirming, setConfirming] = useState<Confirmation>();
  const offline = useMoneyActionsOffline();
  const limits = useWithdrawalLimits();
  const tdsBasisPoints = tdsBasisPointsOf(limits.data);

  const balanceMicros = usdtMicrosFromWire(summary.balanceUsdt);
  const schema = z
    .object({ amount: withdrawalAmountSchema, bankAccountId: z.string().min(1, WITHDRAWAL_MESSAGES.selectBankAccount) })
    .superRefine((values, context) => {
      const amount = parseUsdtMicros(values.amount, WITHDRAWAL_DECIMALS);
      if (amount.ok && amount.value > balanceMicros) context.addIssue({ code: 'custom', path: ['amount'], message: WITHDRAWAL_MESSAGES.insufficientBalance });
      else if (amount.ok && limits.data) {
        const refusal = limitRefusal(amount.value, limits.data);
        if (refusal) context.addIssue({ code: 'custom', path: ['amount'], message: refusal });
      }
    });
  const form = useForm<WithdrawForm>({ resolver: zodResolver(schema), defaultValues: { amount: '', bankAccountId: '' } });
  const [bannerError, setBannerError] = useActionError(form);
  const { errors } = form.formState;
  const amountText = useWatch({ control: form.control, name: 'amount' }) ?? '';
  const quote = previewQuote(amountText, summary);
  const breakdown = quote && tdsBasisPoints > 0n ? breakdownOf(quote.amountInrPaise, tdsBasisPoints) : undefined;
  const accounts = bankAccounts.data?.items ?? [];
  usePreselectOnlyPayee(form, accounts);
  const chosenAccount = accounts.find((account) => account.id === confirming?.bankAccountId);
  const selectedAccountId = useWatch({ control: form.control, name: 'bankAccountId' });
  const accountPause = pauses.data?.withdrawals ?? undefined;
  const bankAccountPauses = new Map((pauses.data?.bankAccounts ?? []).map((pause) => [pause.bankAccountId, pause]));
  const selectedAccountPause = selectedAccountId ? bankAccountPauses.get(selectedAccountId) : undefined;

  const onRequest = form.handleSubmit((values) => {
    setBannerError(undefined);
    // The price is frozen here: the dialog shows it, and the server refuses any other.
    const frozenQuote = previewQuote(values.amount, summary);
    setConfirming({
      ...values,
      quote: frozenQuote,
      breakdown: frozenQuote && tdsBasisPoints > 0n ? breakdownOf(frozenQuote.amountInrPaise, tdsBasisPoints) : undefined,
    });
  });

  const confirmWithPin = async (pin: string): Promise<PinCheckOutcome> => {
    if (!confirming) return { ok: true };
    try {
      const request = { amount: confirming.amount.trim(), bankAccountId: confirming.bankAccountId };
      // The expected amount is left out of the key: re-confirming at a new price after a
      // lost answer must replay the withdrawal already made, never make a second one.
      const expectedAmountInr = confirming.quote ? inrPaiseToWire(confirming.quote.amountInrPaise) : undefined;
      // The net amount shown is a precondition too: the server refuses it if the TDS rate changed meanwhile.
      const expectedNetInr = confirming.quote ? inrPaiseToWire(confirming.breakdown?.netInrPaise ?? confirming.quote.amountInrPaise) : undefined;
      const answer = await requestWithdrawal(
        {
          ...request,
          pin,
          ...(expectedAmountInr === undefined ? {} : { expectedAmountInr }),
          ...(expectedNetInr === undefined || limits.data === undefined ? {} : { expectedNetInr }),
        },
        idempotencyKeys.keyFor(request),
      );
      idempotencyKeys.forget();
      toast.success(localizeMessage(answer.message || WITHDRAWAL_MESSAGES.submitted));
      void refreshMoney();
      setConfirming(undefined);
      onSubmitted(answer.withdrawal);
      return { ok: true };
    } catch (error) {
      if (endOfSession(error)) return { ok: true };
      if (error instanceof ApiError && error.code === 'PIN_INCORRECT') {
        const remaining = error.remainingAttempts;
        return {
          ok: false,
          pinError: `${t('pin.incorrectTryAgain')}${remaining !== undefined ? ` ${t('withdraw.attemptsRemaining', { count: remaining })}` : ''}`,
        };
      }
      const failure = applySubmissionFailure(form, error, FIELDS, t('withdraw.failed'));
      if (error instanceof ApiError && error.code === 'PRICE_CHANGED') {
        // Wait for the new rates, so the preview shows the new amount when the dialog closes;
        // the form keeps its values for the customer to confirm again.
        await Promise.allSettled([queryClient.invalidateQueries({ queryKey: QUERY_KEYS.rates }), refreshMoney(), limits.refetch()]);
      } else {
        // The balance or the accounts may have changed under us.
        void refreshMoney();
      }
      setConfirming(undefined);
      // Said once, near the button, after the dialog has closed (editing a field clears it).
      setBannerError(failure.actionError);
      return { ok: true };
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('withdraw.cardTitle')}</CardTitle>
        <CardDescription>{t('withdraw.cardDescription')}</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={(event) => void onRequest(event)} noValidate className="flex flex-col gap-5">
          {accountPause && (
            <Alert variant="destructive" data-testid="withdrawal-pause">
              {localizeMessage(accountPause.message, { until: displayDateTime(accountPause.until) })}
            </Alert>
          )}
          {limits.data && <WithdrawalLimitsNote limits={limits.data} />}
          <FormField
            label={t('deposit.amountUsdt')}
            error={errors.amount?.message}
            help={amountHelp(limits.data?.minUsdt ?? summary.minWithdrawalUsdt, balanceMicros)}
          >
            <InputWithAction
              inputMode="decimal"
              autoComplete="off"
              maxLength={24}
              placeholder="0.00"
              {...amountField(form.register('amount'))}
              action={
                <Button
                  variant="outline"
                  onClick={() => {
                    // The most that can leave now: the balance, or less when a limit leaves less today.
                    const availableMicros = limits.data?.availableUsdt ? usdtMicrosFromWire(limits.data.availableUsdt) : undefined;
                    const maxMicros = availableMicros !== undefined && availableMicros < balanceMicros ? availableMicros : balanceMicros;
                    form.setValue('amount', formatDecimal(maxMicros, USDT_DECIMALS, WITHDRAWAL_DECIMALS));
                    form.clearErrors('amount');
                  }}
                >
                  {t('withdraw.max')}
                </Button>
              }
            />
          </FormField>

          <InrPreview quote={quote} breakdown={breakdown} tdsPercent={limits.data?.tdsPercent} />

          <div className="flex flex-col gap-1.5">
            {bankAccounts.isPending ? (
              <Spinner label={t('withdraw.loadingBankAccounts')} />
            ) : bankAccounts.isError ? (
              <p className="text-sm text-red-700">{t('withdraw.bankAccountsFailed')}</p>
            ) : accounts.length === 0 ? (
              <p className="rounded-lg border border-slate-200 bg-slate-50 p-3 text-sm text-slate-600">{t('withdraw.addBankAccountFirst')}</p>
            ) : (
              <FormField label={t('withdraw.bankAccount')} error={errors.bankAccountId?.message}>
                <Select {...form.register('bankAccountId')}>
                  <option value="">{t('withdraw.selectBankAccount')}</option>
                  {accounts.map((account) => (
                    <option key={account.id} value={account.id} disabled={payeeRefusal(account, bankAccounts.data.checkedWithBank) !== undefined}>
                      {account.bankName} ••••{account.accountNumberLast4} ({account.accountHolderName})
                      {bankAccountPauses.has(account.id) ? t('withdraw.paused') : ''}
                      {account.flaggedAt !== null ? t('withdraw.payoutFailed', { reason: account.flagReason ?? t('withdraw.accountProblem') }) : ''}
                      {account.flaggedAt === null && payeeRefusal(account, bankAccounts.data.checkedWithBank) !== undefined
                        ? t('withdraw.payeeNotConfirmed')
                        : ''}
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
          open={confirming !== undefined}
          onOpenChange={(open) => !open && setConfirming(undefined)}
          summary={
            confirming
              ? `${t('withdraw.pinSummary', { amount: confirmedAmountText(confirming.amount) })}${confirming.quote ? t('withdraw.pinSummaryInr', { inr: formatInrForDisplay(confirming.quote.amountInrPaise) }) : ''}${chosenAccount ? t('withdraw.pinSummaryTo', { bank: `${chosenAccount.bankName} ••••${chosenAccount.accountNumberLast4}` }) : ''}.${confirming.breakdown && limits.data ? ` ${breakdownSentence(confirming.breakdown, limits.data.tdsPercent)}.` : ''}`
              : ''
          }
          onConfirm={confirmWithPin}
        />
      </CardContent>
    </Card>
  );
}

/**
 * Withdrawals move whole cents; a balance with a smaller remainder (from a
 * deposit or a referral bonus) says so, so that Max is never a surprise.
 */
function amountHelp(minimumUsdt: string, balanceMicros: bigint): string {
  const minimum = t('withdraw.minimumHelp', { amount: displayUsdt(minimumUsdt) });
  const remainderMicros = balanceMicros % CENT_IN_MICROS;
  if (remainderMicros === 0n) return minimum;
  return t('withdraw.wholeCents', { minimum, remainder: formatUsdtExact(remainderMicros) });
}

const CENT_IN_MICROS = 10n ** BigInt(USDT_DECIMALS - WITHDRAWAL_DECIMALS);

/** An input with a button beside it; the id and aria attributes from FormField go to the input. */
function InputWithAction({ action, ...inputProps }: ComponentProps<typeof Input> & { action: ReactNode }) {
  return (
    <div className="flex gap-2">
      <Input className="min-w-0 flex-1" {...inputProps} />
      {action}
    </div>
  );
}

/** The same rule as the server (shared code); the server's answer carries the rate finally used. */
function previewQuote(amountText: string, summary: WalletSummary): WithdrawalQuote | undefined {
  const amount = parseUsdtMicros(amountText, WITHDRAWAL_DECIMALS);
  if (!amount.ok || amount.value <= 0n) return undefined;
  return quoteWithdrawal(
    amount.value,
    { rateNormalInrPaise: inrPaiseFromWire(summary.rates.normalInr), rateVipInrPaise: inrPaiseFromWire(summary.rates.vipInr) },
    // The summary's tier comes with its rates, from the same rule as the customer's level on the server.
    summary.rateTier,
  );
}

/** The limits the server will apply, said before the request (the server's own check decides). */
function limitRefusal(amountUsdtMicros: bigint, limits: WithdrawalLimits): string | undefined {
  const minimum = usdtMicrosFromWire(limits.minUsdt);
  if (amountUsdtMicros < minimum) return WITHDRAWAL_RULE_MESSAGES.minimum(minimum);
  if (limits.maxUsdt !== null && amountUsdtMicros > usdtMicrosFromWire(limits.maxUsdt))
    return WITHDRAWAL_RULE_MESSAGES.maximum(usdtMicrosFromWire(limits.maxUsdt));
  if (limits.daily.limitUsdt !== null && limits.daily.leftUsdt !== null && amountUsdtMicros > usdtMicrosFromWire(limits.daily.leftUsdt)) {
    return WITHDRAWAL_RULE_MESSAGES.daily(usdtMicrosFromWire(limits.daily.limitUsdt), usdtMicrosFromWire(limits.daily.leftUsdt));
  }
  if (limits.monthly.limitUsdt !== null && limits.monthly.leftUsdt !== null && amountUsdtMicros > usdtMicrosFromWire(limits.monthly.leftUsdt)) {
    return WITHDRAWAL_RULE_MESSAGES.monthly(usdtMicrosFromWire(limits.monthly.limitUsdt), usdtMicrosFromWire(limits.monthly.leftUsdt));
  }
  return undefined;
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
