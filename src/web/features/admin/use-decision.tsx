import { useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { payoutReferenceSchema, rejectRequestSchema } from '#shared/contracts/money-common';
import { LIMITS } from '#shared/limits';
import { PAYOUT_BATCH_MESSAGES, utrHasFormOf, type PaymentMode } from '#shared/contracts/payout-batches';
import { WITHDRAWAL_MESSAGES } from '#shared/contracts/withdrawals';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { adminKeys, decideRequest, usePayoutOverview, type Decision, type QueueKind } from './api.ts';
import { DecisionDialog, type NoteField } from './components/decision-dialog.tsx';

export interface DecisionTarget {
  kind: QueueKind;
  decision: Decision;
  id: string;
  description: string;
  /** A withdrawal's rail, whose form its UTR must have. */
  paymentMode?: PaymentMode | undefined;
}

interface DecisionTexts {
  title: string;
  confirmLabel: string;
  success: string;
  successDetail?: string;
  /** Toast when the server refused (already decided, not found); falls back to `failure`. */
  refused?: string;
  failure: string;
}

// Texts of SPEC.md section 8 where it has them.
const TEXTS: Record<QueueKind, Record<Decision, DecisionTexts>> = {
  deposits: {
    approve: { title: 'Approve deposit?', confirmLabel: 'Approve deposit', success: 'Deposit approved successfully', failure: 'Failed to approve deposit' },
    reject: { title: 'Reject deposit?', confirmLabel: 'Reject deposit', success: 'Deposit rejected', failure: 'Failed to reject deposit' },
  },
  withdrawals: {
    approve: {
      title: 'Approve withdrawal?',
      confirmLabel: 'Approve withdrawal',
      success: 'Withdrawal approved successfully',
      refused: 'Could not approve withdrawal',
      failure: 'Failed to approve withdrawal',
    },
    reject: {
      title: 'Reject withdrawal?',
      confirmLabel: 'Reject withdrawal',
      success: 'Withdrawal rejected',
      successDetail: 'Funds returned to user',
      refused: 'Could not reject withdrawal',
      failure: 'Failed to reject withdrawal',
    },
  },
  transfers: {
    approve: { title: 'Approve transfer?', confirmLabel: 'Approve transfer', success: 'Transfer approved successfully', failure: 'Failed to approve transfer' },
    reject: {
      title: 'Reject transfer?',
      confirmLabel: 'Reject transfer',
      success: 'Transfer rejected',
      successDetail: 'Funds returned to sender',
      failure: 'Failed to reject transfer',
    },
  },
};

const REASON_FIELD: NoteField = {
  label: 'Reason (optional)',
  help: 'The customer sees this reason in their history.',
  maxLength: LIMITS.reasonLength,
  multiline: true,
  schema: rejectRequestSchema.unwrap().shape.reason,
};

/**
 * The UTR of a withdrawal's approve (decision 049): without a payout provider the approve records a payment made
 * by hand and needs the UTR, of its rail's form; with one, an empty field sends the withdrawal through the provider.
 */
function payoutReferenceField(paymentMode: PaymentMode, viaProvider: boolean): NoteField {
  return {
    label: viaProvider ? 'Bank payout reference (UTR, only if paid by hand)' : 'Bank payout reference (UTR)',
    help: viaProvider
      ? 'Leave it empty to pay through the payout provider. A UTR records a payment already made by hand.'
      : `The UTR of the ${paymentMode} payment you made (${paymentMode === 'NEFT' ? '16 letters or digits' : '12 digits'}).`,
    maxLength: LIMITS.payoutReferenceLength,
    multiline: false,
    schema: payoutReferenceSchema.superRefine((value, context) => {
      if (value === undefined) {
        if (!viaProvider) context.addIssue({ code: 'custom', message: WITHDRAWAL_MESSAGES.payoutReferenceRequired });
      } else if (!utrHasFormOf(paymentMode, value.toUpperCase())) {
        context.addIssue({ code: 'custom', message: PAYOUT_BATCH_MESSAGES.utrMalformed(paymentMode) });
      }
    }),
  };
}

const APPROVAL_REASON_FIELD: NoteField = {
  ...REASON_FIELD,
  label: 'Reason (needed when the blockchain refutes this deposit)',
  help: 'A deposit the blockchain refutes is credited only when a second admin confirms it, with this reason.',
};

function noteFieldOf(target: DecisionTarget, viaProvider: boolean): NoteField | undefined {
  if (target.decision === 'reject') return REASON_FIELD;
  if (target.kind === 'deposits') return APPROVAL_REASON_FIELD;
  return target.kind === 'withdrawals' ? payoutReferenceField(target.paymentMode ?? 'IMPS', viaProvider) : undefined;
}

/** A refusal that leaves nothing to retry: decided meanwhile (409), gone (404), or not this admin's to decide (403, e.g. their own request). */
function isFinalRefusal(error: unknown): error is ApiError {
  return error instanceof ApiError && (error.status === 409 || error.status === 404 || error.status === 403);
}

/**
 * Approve and reject with a confirmation first. The decided row is replaced in
 * the cached lists at once, then every admin answer (queues, dashboard) refreshes.
 */
export function useDecision() {
  const queryClient = useQueryClient();
  const [target, setTarget] = useState<DecisionTarget | null>(null);
  const [serverError, setServerError] = useState<string | undefined>();
  const mutation = useMutation({ mutationFn: decideRequest });
  const payoutOverview = usePayoutOverview(target?.kind === 'withdrawals');

  const refresh = () => queryClient.invalidateQueries({ queryKey: adminKeys.all });

  const confirm = (current: DecisionTarget, note: string) => {
    const texts = TEXTS[current.kind][current.decision];
    setServerError(undefined);
    mutation.mutate(
      { kind: current.kind, id: current.id, decision: current.decision, note },
      {
        onSuccess: (answer) => {
          if ('pendingChange' in answer) {
            // A large withdrawal's or a refuted deposit's first approval (decisions 017, 037): nothing was decided yet.
            toast.info('Awaiting second approval', { description: answer.message });
            setTarget(null);
            void refresh();
            return;
          }
          const decided = 'deposit' in answer ? answer.deposit : 'withdrawal' in answer ? answer.withdrawal : answer.transfer;
          queryClient.setQueriesData<InfiniteData<{ items: { id: string }[] }>>({ queryKey: [...adminKeys.queues(), current.kind] }, (data) =>
            data
              ? { ...data, pages: data.pages.map((page) => ({ ...page, items: page.items.map((item) => (item.id === decided.id ? decided : item)) })) }
              : data,
          );
          toast.success(texts.success, texts.successDetail ? { description: texts.successDetail } : {});
          setTarget(null);
          void refresh();
        },
        onError: (error) => {
          // A refusal of the typed text (a UTR another withdrawal carries is a 409) stays in the dialog, under the field.
          const fieldMessage = error instanceof ApiError ? (error.fields.reason ?? error.fields.payoutReference) : undefined;
          if (fieldMessage) {
            setServerError(fieldMessage);
            return;
          }
          if (isFinalRefusal(error)) {
            toast.error(texts.refused ?? texts.failure, { description: error.message });
            setTarget(null);
            void refresh();
            return;
          }
          const refusedByServer = error instanceof ApiError && error.status >= 400 && error.status < 500;
          toast.error(refusedByServer ? (texts.refused ?? texts.failure) : texts.failure, { description: errorMessage(error, 'Please try again.') });
        },
      },
    );
  };

  const open = (next: DecisionTarget) => {
    setServerError(undefined);
    setTarget(next);
  };

  // Until the configuration is known, the UTR is asked for: the stricter form, which the server takes either way.
  const viaProvider = (payoutOverview.data?.provider ?? null) !== null;
  const dialog = target ? (
    <DecisionDialog
      key={`${target.kind}-${target.id}-${target.decision}-${String(viaProvider)}`}
      title={TEXTS[target.kind][target.decision].title}
      description={target.description}
      confirmLabel={TEXTS[target.kind][target.decision].confirmLabel}
      destructive={target.decision === 'reject'}
      field={noteFieldOf(target, viaProvider)}
      busy={mutation.isPending}
      serverError={serverError}
      onCancel={() => setTarget(null)}
      onConfirm={(note) => confirm(target, note)}
    />
  ) : null;

  return { open, dialog, busyId: mutation.isPending ? (mutation.variables?.id ?? null) : null };
}
