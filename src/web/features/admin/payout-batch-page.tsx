import { Download, Upload, X } from 'lucide-react';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { useParams } from 'react-router';
import { PAYOUT_BATCH_MESSAGES, payoutResultRowSchema, utrHasFormOf, type PayoutResult, type PayoutResultsPreview } from '#shared/contracts/payout-batches';
import { PAYOUT_FILE_FORMAT_LABELS } from '#shared/contracts/payout-file-formats';
import { LIMITS } from '#shared/limits';
import { Alert } from '../../components/ui/alert.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { ConfirmDialog } from '../../components/ui/dialog.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from '../../components/ui/table.tsx';
import { errorMessage } from '../../lib/api.ts';
import { payoutBatchCsvUrl, usePayoutBatch } from './api.ts';
import { AdminPage } from './components/admin-page.tsx';
import { CopyValue } from './components/copy-value.tsx';
import { ErrorState, LoadingState } from './components/list-states.tsx';
import { PayoutBatchStatus } from './components/payout-batch-status.tsx';
import { StatusBadge } from './components/status-badge.tsx';
import { AwaitingSecondApproval } from './components/pending-changes-panel.tsx';
import { fullDateTimeText, inrText, usdtText } from './format.ts';
import { usePayoutBatchActions } from './use-payout-batch-actions.ts';

type Withdrawal = NonNullable<ReturnType<typeof usePayoutBatch>['data']>['withdrawals'][number];

const RESULT_LOOK = {
  applied: { tone: 'success', label: 'Applied' },
  already_applied: { tone: 'default', label: 'Already applied' },
  awaiting_second_approval: { tone: 'warning', label: 'Awaiting second approval' },
  refused: { tone: 'danger', label: 'Refused' },
} as const;

const OUTCOME_WORDS = { paid: 'Paid', failed: 'Failed', not_sent: 'Not sent' } as const;

const VERDICT_LOOK = {
  paid: { tone: 'success', label: 'Will be marked paid' },
  failed: { tone: 'danger', label: 'Will be refunded' },
  not_sent: { tone: 'warning', label: 'Will be pending again' },
  already_applied: { tone: 'default', label: 'Already applied' },
  problem: { tone: 'danger', label: 'Problem' },
} as const;

/** What the uploaded results file would do (decision 038): totals, each row, and the batch's rows it leaves out; applied only on confirm. */
function ResultsPreview({ preview, busy, onApply, onDiscard }: { preview: PayoutResultsPreview; busy: boolean; onApply: () => void; onDiscard: () => void }) {
  const { totals } = preview;
  return (
    <Card className="flex flex-col gap-3 p-4" data-testid="payout-results-preview">
      <h2 className="text-base font-semibold">Check the results before applying them</h2>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-slate-500">Paid</dt>
        <dd>
          {totals.paid.count} ({inrText(totals.paid.netInr)})
        </dd>
        <dt className="text-slate-500">Failed</dt>
        <dd>
          {totals.failed.count} ({inrText(totals.failed.netInr)})
        </dd>
        <dt className="text-slate-500">Not sent</dt>
        <dd>
          {totals.notSent.count} ({inrText(totals.notSent.netInr)})
        </dd>
        <dt className="text-slate-500">Already applied</dt>
        <dd>{totals.alreadyApplied}</dd>
        <dt className="text-slate-500">Rows with a problem</dt>
        <dd className={totals.problems > 0 ? 'font-semibold text-red-700' : undefined}>{totals.problems}</dd>
      </dl>
      <ul className="flex flex-col divide-y divide-slate-100 text-sm">
        {preview.rows.map((row) => (
          <li key={row.row} className="flex flex-wrap items-center gap-2 py-2" data-testid={`preview-row-${row.row}`}>
            <span className="text-slate-500">Row {row.row}</span>
            <Badge tone={VERDICT_LOOK[row.verdict].tone}>{VERDICT_LOOK[row.verdict].label}</Badge>
            <span className="font-mono text-xs">{row.reference ?? '—'}</span>
            {row.netInr && <span>{inrText(row.netInr)}</span>}
            {row.utr && <span className="text-xs text-slate-600">UTR {row.utr}</span>}
            {row.message && <span className="w-full text-slate-600">{row.message}</span>}
          </li>
        ))}
      </ul>
      {preview.notInFile.length > 0 && (
        <p className="text-sm text-slate-600">
          Not in this file, still waiting for the bank: {preview.notInFile.map((row) => `${row.reference} (${inrText(row.netInr)})`).join(', ')}
        </p>
      )}
      {!preview.canApply && totals.problems > 0 && (
        <Alert variant="destructive">Fix the rows with a problem and upload the file again: nothing of it is applied while one row has a problem.</Alert>
      )}
      <div className="flex flex-wrap gap-2">
        <Button onClick={onApply} disabled={busy || !preview.canApply}>
          Apply results
        </Button>
        <Button variant="outline" onClick={onDiscard} disabled={busy}>
          Discard
        </Button>
      </div>
    </Card>
  );
}

/** The server's answer for each row of the last results sent: applied, already applied, or refused with its reason. */
function ResultsAnswer({ results, withdrawals, onClose }: { results: PayoutResult[]; withdrawals: Withdrawal[]; onClose: () => void }) {
  const nameOf = (id: string | null) => withdrawals.find((withdrawal) => withdrawal.id === id)?.beneficiaryName;
  return (
    <Card className="flex flex-col gap-3 p-4" data-testid="payout-results">
      <div className="flex items-center justify-between gap-2">
        <h2 className="text-base font-semibold">Results of the last upload</h2>
        <Button variant="ghost" size="icon" aria-label="Close the results" onClick={onClose}>
          <X />
        </Button>
      </div>
      <ul className="flex flex-col divide-y divide-slate-100 text-sm">
        {results.map((result, index) => (
          <li key={`${result.withdrawalId}-${index}`} className="flex flex-wrap items-center gap-2 py-2" data-testid={`payout-result-${result.withdrawalId}`}>
            <Badge tone={RESULT_LOOK[result.result].tone}>{RESULT_LOOK[result.result].label}</Badge>
            <span className="font-medium">{OUTCOME_WORDS[result.outcome]}</span>
            <span className="text-slate-700">{nameOf(result.withdrawalId) ?? 'Unknown withdrawal'}</span>
            <span className="break-all font-mono text-xs text-slate-500">{result.reference}</span>
            {result.message && <span className="w-full text-slate-600">{result.message}</span>}
          </li>
        ))}
      </ul>
    </Card>
  );
}

interface RowResultForm {
  utr: string;
  reason: string;
}

type HandTypedResult = { outcome: 'paid' | 'failed'; utr: string; reason: string };
type RowResultSend = (row: HandTypedResult) => void;

/** The hand-typed result's form: checked as the server will check it before it is sent. */
function useRowResultForm(withdrawal: Withdrawal, onSend: RowResultSend) {
  const form = useForm<RowResultForm>({ defaultValues: { utr: '', reason: '' } });
  const send = (outcome: 'paid' | 'failed') =>
    void form.handleSubmit((values) => {
      // The shared contract checks the row as the server will; a paid row needs its UTR.
      const parsed = payoutResultRowSchema.safeParse({ withdrawalId: withdrawal.id, outcome, utr: values.utr, reason: values.reason });
      if (!parsed.success) {
        for (const issue of parsed.error.issues) {
          const field = issue.path[0];
          if (field === 'utr' || field === 'reason') form.setError(field, { message: issue.message });
        }
        return;
      }
      if (outcome === 'paid' && parsed.data.utr === undefined) {
        form.setError('utr', { message: PAYOUT_BATCH_MESSAGES.utrRequired });
        return;
      }
      // The UTR has its rail's form: 12 digits for IMPS and UPI, 16 characters for NEFT.
      if (outcome === 'paid' && parsed.data.utr !== undefined && !utrHasFormOf(withdrawal.paymentMode, parsed.data.utr)) {
        form.setError('utr', { message: PAYOUT_BATCH_MESSAGES.utrMalformed(withdrawal.paymentMode) });
        return;
      }
      onSend({ outcome, utr: values.utr, reason: values.reason });
    })();
  return { form, send };
}

/** One processing withdrawal's result typed by hand: paid with the UTR, or failed with a reason. */
function RowResult({ withdrawal, busy, onSend }: { withdrawal: Withdrawal; busy: boolean; onSend: RowResultSend }) {
  const { form, send } = useRowResultForm(withdrawal, onSend);
  const idBase = useId();
  const { errors } = form.formState;
  return (
    <form className="flex flex-col gap-2" onSubmit={(event) => event.preventDefault()} aria-label={`Result for ${withdrawal.beneficiaryName}`}>
      <div className="flex flex-col gap-1">
        <Label htmlFor={`${idBase}-utr`} className="text-xs">
          UTR
        </Label>
        <div className="flex gap-2">
          <Input
            id={`${idBase}-utr`}
            className="h-9 text-sm"
            maxLength={LIMITS.payoutReferenceLength}
            autoComplete="off"
            disabled={busy}
            aria-invalid={errors.utr ? true : undefined}
            {...form.register('utr')}
          />
          <Button size="sm" onClick={() => send('paid')} disabled={busy}>
            Paid
          </Button>
        </div>
        {errors.utr && (
          <p className="text-xs text-red-600" role="alert">
            {errors.utr.message}
          </p>
        )}
      </div>
      <div className="flex flex-col gap-1">
        <Label htmlFor={`${idBase}-reason`} className="text-xs">
          Reason it failed
        </Label>
        <div className="flex gap-2">
          <Input
            id={`${idBase}-reason`}
            className="h-9 text-sm"
            maxLength={LIMITS.reasonLength}
            autoComplete="off"
            disabled={busy}
            {...form.register('reason')}
          />
          <Button size="sm" variant="outline" className="border-red-300 text-red-700 hover:bg-red-50" onClick={() => send('failed')} disabled={busy}>
            Failed
          </Button>
        </div>
        {errors.reason && (
          <p className="text-xs text-red-600" role="alert">
            {errors.reason.message}
          </p>
        )}
      </div>
    </form>
  );
}

function WithdrawalsTable({
  withdrawals,
  busy,
  onSendRow,
}: {
  withdrawals: Withdrawal[];
  busy: boolean;
  onSendRow: (id: string, row: HandTypedResult) => void;
}) {
  return (
    <Table label="Withdrawals in this batch" stacked className="md:min-w-[64rem]">
      <TableHead>
        <TableRow>
          <TableHeaderCell>Beneficiary</TableHeaderCell>
          <TableHeaderCell>Bank details</TableHeaderCell>
          <TableHeaderCell>Amount</TableHeaderCell>
          <TableHeaderCell>Status</TableHeaderCell>
          <TableHeaderCell>Result</TableHeaderCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {withdrawals.map((withdrawal) => (
          <WithdrawalRow key={withdrawal.id} withdrawal={withdrawal} busy={busy} onSendRow={onSendRow} />
        ))}
      </TableBody>
    </Table>
  );
}

function WithdrawalRow({ withdrawal, busy, onSendRow }: { withdrawal: Withdrawal; busy: boolean; onSendRow: (id: string, row: HandTypedResult) => void }) {
  return (
    <TableRow data-testid={`batch-withdrawal-${withdrawal.id}`}>
      <TableCell label="Beneficiary" wide>
        <p className="font-medium text-slate-900">{withdrawal.beneficiaryName}</p>
        <p className="text-xs text-slate-600">{withdrawal.bankName}</p>
        <p className="font-mono text-xs text-slate-500">
          Ref. <CopyValue value={withdrawal.reference} what="Reference" />
        </p>
      </TableCell>
      <TableCell label="Bank details" wide>
        <BankDetails withdrawal={withdrawal} />
      </TableCell>
      <TableCell label="Amount" className="whitespace-nowrap">
        {/* The bank file pays the net amount (the gross less TDS). */}
        <p className="font-medium">{inrText(withdrawal.netInr)}</p>
        {withdrawal.tdsInr !== '0.00' && (
          <p className="text-xs text-slate-500">
            {inrText(withdrawal.amountInr)} less TDS {inrText(withdrawal.tdsInr)}
          </p>
        )}
        <p className="text-xs text-slate-500">{usdtText(withdrawal.amountUsdt)}</p>
      </TableCell>
      <TableCell label="Status">
        <StatusBadge status={withdrawal.status} />
        {withdrawal.inDoubt && <p className="mt-1 text-xs font-medium text-amber-700">In doubt: the bank may have its file. Record the bank’s result.</p>}
        {withdrawal.status === 'processing' && <AwaitingSecondApproval withdrawalId={withdrawal.id} />}
        {withdrawal.payoutReference && <p className="mt-1 break-all text-xs text-slate-600">UTR: {withdrawal.payoutReference}</p>}
        {withdrawal.rejectionReason && <p className="mt-1 text-xs text-slate-600">Reason: {withdrawal.rejectionReason}</p>}
      </TableCell>
      <TableCell label="Result" wide className="md:min-w-[16rem]">
        {withdrawal.status === 'processing' ? (
          <RowResult withdrawal={withdrawal} busy={busy} onSend={(row) => onSendRow(withdrawal.id, row)} />
        ) : (
          <span className="text-slate-400" aria-label="Decided">
            —
          </span>
        )}
      </TableCell>
    </TableRow>
  );
}

/** The details the admin copies into the bank's portal. */
function BankDetails({ withdrawal }: { withdrawal: Withdrawal }) {
  return (
    <dl className="grid grid-cols-[auto_1fr] items-center gap-x-2 text-xs">
      <dt className="text-slate-500">Account</dt>
      <dd>
        <CopyValue value={withdrawal.accountNumber} what="Account number" />
      </dd>
      <dt className="text-slate-500">IFSC</dt>
      <dd>
        <CopyValue value={withdrawal.ifscCode} what="IFSC" />
      </dd>
      {withdrawal.upiId && (
        <>
          <dt className="text-slate-500">UPI</dt>
          <dd>
            <CopyValue value={withdrawal.upiId} what="UPI ID" mono={false} />
          </dd>
        </>
      )}
      <dt className="text-slate-500">Mode</dt>
      <dd>{withdrawal.paymentMode}</dd>
    </dl>
  );
}

type BatchDetail = NonNullable<ReturnType<typeof usePayoutBatch>['data']>;
type Batch = BatchDetail['batch'];

function adminName(admin: { name: string; email: string } | null, gone: string): string {
  return admin ? `${admin.name} (${admin.email})` : gone;
}

/** Who made the batch, its total and state, and whether its file was issued; the download and the cancel beside them. */
function BatchFactsCard({ data, cancellable, busy, onCancel }: { data: BatchDetail; cancellable: boolean; busy: boolean; onCancel: () => void }) {
  const { batch } = data;
  return (
    <Card className="flex flex-col gap-4 p-4 lg:flex-row lg:items-start lg:justify-between">
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-slate-500">Created</dt>
        <dd>
          <time dateTime={batch.createdAt}>{fullDateTimeText(batch.createdAt)}</time>
        </dd>
        <dt className="text-slate-500">By</dt>
        <dd className="break-all">{adminName(batch.createdBy, 'Unknown')}</dd>
        <dt className="text-slate-500">Withdrawals</dt>
        <dd>{batch.count}</dd>
        <dt className="text-slate-500">Total</dt>
        <dd className="font-semibold">{inrText(batch.totalInr)}</dd>
        <dt className="text-slate-500">State</dt>
        <dd>
          <PayoutBatchStatus batch={batch} />
        </dd>
        <dt className="text-slate-500">Bank file</dt>
        <dd data-testid="payout-file-issue">
          {batch.issuedAt ? (
            <>
              {PAYOUT_BATCH_MESSAGES.alreadyDownloaded(new Date(batch.issuedAt), adminName(batch.issuedBy, 'an admin who is gone'))} Downloads:{' '}
              {batch.downloadCount}.{batch.fileFormat && <span className="block">Layout: {PAYOUT_FILE_FORMAT_LABELS[batch.fileFormat]}</span>}
              {batch.fileSha256 && <span className="block break-all font-mono text-xs text-slate-500">SHA-256 {batch.fileSha256}</span>}
            </>
          ) : (
            'Not downloaded yet. The first download issues it in the layout the settings name: after that, cancelling needs a second admin.'
          )}
        </dd>
      </dl>
      <div className="flex flex-wrap gap-2">
        {data.fileRefusal !== null && (
          <Alert variant="destructive" className="w-full" data-testid="batch-file-refusal">
            {data.fileRefusal}
          </Alert>
        )}
        {batch.status !== 'cancelled' && data.fileRefusal === null && (
          <Button variant="outline" asChild>
            <a href={payoutBatchCsvUrl(batch.id)} download>
              <Download />
              Download bank file (CSV)
            </a>
          </Button>
        )}
        {cancellable && (
          <Button variant="outline" className="border-red-300 text-red-700 hover:bg-red-50" onClick={onCancel} disabled={busy}>
            <X />
            Cancel batch
          </Button>
        )}
      </div>
    </Card>
  );
}

/** A cancelled batch: whether its withdrawals are in doubt (its file was out) or settled. */
function CancelledBatchNotice({ batch }: { batch: Batch }) {
  if (batch.inDoubtCount > 0) {
    return (
      <Alert variant="default">
        {batch.inDoubtCount} withdrawal{batch.inDoubtCount === 1 ? ' is' : 's are'} in doubt: this batch was cancelled after its file was downloaded. They stay
        out of every batch until the bank’s results mark each one paid, failed or not sent.
      </Alert>
    );
  }
  return (
    <Alert variant="info">
      {batch.issuedAt
        ? 'Payout batch cancelled after its file was downloaded; the bank’s results settled every withdrawal.'
        : PAYOUT_BATCH_MESSAGES.cancelledMessage}
    </Alert>
  );
}

/** The bank's results file: chosen here, previewed by the server before anything applies. */
function ResultsUploadCard({ actions }: { actions: ReturnType<typeof usePayoutBatchActions> }) {
  const fileInputId = useId();
  const { sending, uploadError } = actions;
  return (
    <Card className="flex flex-col gap-2 p-4">
      <Label htmlFor={fileInputId}>Upload the bank’s results (CSV)</Label>
      <p className="text-xs text-slate-500">
        A header row, then the reference (or the narration it came back in), the outcome (paid, failed or not sent; or the bank’s words), the UTR, a reason and
        the amount. You see what it would do before it is applied; sending the same file again applies nothing twice.
      </p>
      <Input
        key={actions.inputKey}
        id={fileInputId}
        type="file"
        accept=".csv,text/csv"
        className="h-auto py-2 text-sm file:mr-3 file:rounded-md file:border-0 file:bg-slate-100 file:px-3 file:py-1.5 file:text-sm file:font-medium"
        disabled={sending}
        aria-invalid={uploadError ? true : undefined}
        onChange={(event) => void actions.uploadFile(event.target.files?.[0])}
      />
      {sending && (
        <p className="flex items-center gap-2 text-sm text-slate-600">
          <Upload className="size-4" aria-hidden /> Sending the results...
        </p>
      )}
      {uploadError && (
        <p className="text-sm text-red-600" role="alert">
          {uploadError}
        </p>
      )}
    </Card>
  );
}

/** One payout batch: its bank file, the bank's results (a CSV file or row by row), and cancel while nothing is decided. */
export default function PayoutBatchPage() {
  const { batchId = '' } = useParams();
  const detail = usePayoutBatch(batchId);
  const actions = usePayoutBatchActions(batchId);
  const { sending, preview, results } = actions;

  const data = detail.data;
  const batch = data?.batch;
  const cancellable = batch?.status === 'open' && batch.processingCount === batch.count;
  const takesResults = batch !== undefined && (batch.status !== 'cancelled' || batch.inDoubtCount > 0);

  return (
    <AdminPage title="Payout Batch" backTo="/admin/payouts">
      {detail.isPending && <LoadingState text="Loading payout batch..." />}
      {detail.isError && (
        <ErrorState title="Failed to load the payout batch" message={errorMessage(detail.error, 'Please try again.')} onRetry={() => void detail.refetch()} />
      )}
      {batch && data && (
        <>
          <BatchFactsCard data={data} cancellable={cancellable} busy={sending} onCancel={() => actions.cancel.setConfirming(true)} />
          {batch.status === 'cancelled' && <CancelledBatchNotice batch={batch} />}
          {takesResults && <ResultsUploadCard actions={actions} />}
          {preview && (
            <ResultsPreview preview={preview.answer} busy={sending} onApply={() => void actions.applyPreviewed()} onDiscard={actions.discardPreview} />
          )}
          {results && <ResultsAnswer results={results} withdrawals={data.withdrawals} onClose={actions.closeResults} />}
          {data.withdrawals.length > 0 && (
            <WithdrawalsTable
              withdrawals={data.withdrawals}
              busy={sending}
              onSendRow={(id, row) =>
                void actions.sendRow({
                  reference: data.withdrawals.find((withdrawal) => withdrawal.id === id)?.reference,
                  withdrawalId: id,
                  outcome: row.outcome,
                  utr: row.utr.trim() || undefined,
                  reason: row.reason.trim() || undefined,
                  amountInr: undefined,
                })
              }
            />
          )}
        </>
      )}

      <ConfirmDialog
        open={actions.cancel.confirming}
        onOpenChange={(open) => !sending && actions.cancel.setConfirming(open)}
        title="Cancel this payout batch?"
        description={
          batch?.issuedAt
            ? 'Its file was already downloaded, so the bank may have it. While two admins exist a second admin must confirm the cancel. Its withdrawals then stay in doubt, out of every batch, until the bank’s results mark each one paid, failed or not sent.'
            : 'Its withdrawals return to pending and can go into another batch. Do this only if the bank file was not sent to the bank.'
        }
        confirmLabel={sending ? 'Please wait...' : 'Cancel batch'}
        cancelLabel="Keep batch"
        destructive
        busy={sending}
        onConfirm={() => void actions.cancel.confirm()}
      />
    </AdminPage>
  );
}
