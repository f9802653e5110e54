import { useQueryClient } from '@tanstack/react-query';
import { RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { ACCEPTABLE_PAYEE_CHECKS, type AdminPayee } from '#shared/contracts/bank-accounts';
import { Button } from '../../components/ui/button.tsx';
import { errorMessage } from '../../lib/api.ts';
import { adminKeys, usePayeeReview } from './api.ts';
import { AdminPage } from './components/admin-page.tsx';
import { EmptyState, ErrorState, LoadingState, LoadMore } from './components/list-states.tsx';
import { RejectPayeeDialog } from './reject-payee-dialog.tsx';
import { PayeeFacts, PayeeHeading } from './payee-facts.tsx';
import { AcceptPayeeDialog } from './user-payees-card.tsx';

type Decide = (payee: AdminPayee) => void;

function ReviewedPayee({ payee, onAccept, onReject }: { payee: AdminPayee; onAccept: Decide; onReject: Decide }) {
  return (
    <li className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-3" data-testid={`payee-review-${payee.id}`}>
      <PayeeHeading payee={payee} />
      <p className="text-sm">
        <Link to={`/admin/users/${payee.userId}`} className="font-medium text-slate-900 hover:text-brand-700 hover:underline">
          {payee.customerName}
        </Link>{' '}
        <span className="break-all text-slate-600">{payee.customerEmail}</span>
      </p>
      <PayeeFacts payee={payee} />
      {ACCEPTABLE_PAYEE_CHECKS.includes(payee.payeeCheck) ? (
        <div className="flex flex-wrap gap-2">
          <Button size="sm" variant="outline" onClick={() => onAccept(payee)}>
            Accept this account
          </Button>
          <Button size="sm" variant="destructive" onClick={() => onReject(payee)}>
            Reject this account
          </Button>
        </div>
      ) : (
        <p className="text-xs text-slate-600">The bank refused this account: it takes no withdrawal until the customer edits it.</p>
      )}
    </li>
  );
}

/**
 * The payees the bank did not confirm (decision 054): a name that does not match the customer's, an invalid account
 * or a check that failed, oldest first. An admin accepts or rejects a mismatch or a failed check (a second admin
 * confirms it while two admins exist, decision 057); an invalid account waits for the customer's edit.
 */
export default function PayeeReviewPage() {
  const queryClient = useQueryClient();
  const review = usePayeeReview();
  const [accepting, setAccepting] = useState<AdminPayee>();
  const [rejecting, setRejecting] = useState<AdminPayee>();
  const refresh = () => queryClient.invalidateQueries({ queryKey: adminKeys.all });
  const items = review.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <AdminPage title="Payee review" backTo="/admin">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-slate-600">
          Bank accounts the bank’s check did not confirm, oldest first. None of them takes a withdrawal until it is accepted or edited; a rejected one leaves
          the list until its customer edits it.
        </p>
        <Button variant="outline" onClick={() => void review.refetch()} disabled={review.isFetching} aria-busy={review.isFetching}>
          <RefreshCw className={review.isFetching ? 'animate-spin' : undefined} />
          Refresh
        </Button>
      </div>
      {review.isPending && <LoadingState text="Loading bank accounts to review..." />}
      {review.isError && (
        <ErrorState title="Failed to load the payee review" message={errorMessage(review.error, 'Please try again.')} onRetry={() => void review.refetch()} />
      )}
      {review.isSuccess && items.length === 0 && <EmptyState title="No bank accounts to review">Every checked bank account matched its customer.</EmptyState>}
      {items.length > 0 && (
        <>
          <ul className="flex flex-col gap-4" aria-label="Bank accounts to review">
            {items.map((payee) => (
              <ReviewedPayee key={payee.id} payee={payee} onAccept={setAccepting} onReject={setRejecting} />
            ))}
          </ul>
          <LoadMore hasMore={review.hasNextPage} loading={review.isFetchingNextPage} onLoadMore={() => void review.fetchNextPage()} />
        </>
      )}
      <AcceptPayeeDialog
        payee={accepting}
        describe={(payee) =>
          `Withdrawals of ${payee.customerName} to ${payee.bankName} ••••${payee.accountNumberLast4} will be allowed although the bank did not confirm it is in the customer’s name. With two admins, a second admin confirms it.`
        }
        onClose={() => setAccepting(undefined)}
        afterAnswer={refresh}
      />
      {rejecting && <RejectPayeeDialog payee={rejecting} onClose={() => setRejecting(undefined)} afterAnswer={refresh} />}
    </AdminPage>
  );
}
