import { RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { panRegisteredNameSchema, panRejectionReasonSchema, type PanReview } from '#shared/contracts/kyc';
import { LIMITS } from '#shared/limits';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from '../../components/ui/table.tsx';
import { errorMessage } from '../../lib/api.ts';
import { AdminPage } from './components/admin-page.tsx';
import { DecisionDialog, type NoteField } from './components/decision-dialog.tsx';
import { EmptyState, ErrorState, LoadingState, LoadMore } from './components/list-states.tsx';
import { ageText } from './format.ts';
import { kycImageUrl, useLevelTwoCases, usePanReviews } from './kyc-api.ts';
import { DOCUMENT_TYPE_LABELS } from './kyc-level-two-labels.ts';
import { NAME_MATCH_TONES, RISK_LABELS, RISK_TONES } from './kyc-labels.ts';
import { type ReviewDecision, usePanReviewDecision } from './use-pan-review-decision.ts';

const NAME_FIELD: NoteField = {
  label: 'Name printed on the PAN card',
  help: 'Check it against the Income Tax Department’s record; approving accepts the customer’s current name for this PAN.',
  maxLength: LIMITS.nameLength,
  multiline: false,
  schema: panRegisteredNameSchema,
};

const DIALOG_TEXTS: Record<ReviewDecision['decision'], { title: string; confirm: string }> = {
  approve: { title: 'Approve this PAN?', confirm: 'Approve PAN' },
  reject: { title: 'Reject this PAN?', confirm: 'Reject PAN' },
  request_card: { title: 'Ask for a photo of the PAN card?', confirm: 'Ask for the card' },
};

const REASON_FIELD: NoteField = {
  label: 'Reason',
  help: 'The customer sees this reason on the KYC page and in a notification.',
  maxLength: 500,
  multiline: true,
  schema: panRejectionReasonSchema,
};

/**
 * The photo of the PAN card (decision 066), loaded only when the admin asks to see it: the server checks the PIN
 * and audits every view, so the list does not fetch every card on each refresh.
 */
function PanCardCell({ review }: { review: PanReview }) {
  const [shown, setShown] = useState(false);
  if (review.cardImageId === null) {
    return (
      <span className="text-slate-500">
        {review.cardImageNeeded ? 'No photo of the card yet: approving waits for it' : 'Not needed (provider answered)'}
        {review.cardRequestReason !== null && <span className="mt-1 block text-xs">Asked for: {review.cardRequestReason}</span>}
      </span>
    );
  }
  if (!shown) {
    return (
      <Button size="sm" variant="outline" onClick={() => setShown(true)} aria-label={`Show the PAN card of ${review.name}`}>
        Show the card
      </Button>
    );
  }
  return (
    <figure className="flex flex-col gap-1" data-testid={`pan-card-${review.userId}`}>
      <img
        src={kycImageUrl(review.cardImageId)}
        alt={`PAN card of ${review.name} (shown to admins whose PIN is verified)`}
        className="h-auto w-64 max-w-full rounded border border-slate-200 bg-slate-50 object-contain"
      />
      <figcaption className="text-xs text-slate-600">Each view is recorded in the audit log.</figcaption>
    </figure>
  );
}

function ReviewRow({ review, now, busy, onDecide }: { review: PanReview; now: string; busy: boolean; onDecide: (decision: ReviewDecision) => void }) {
  return (
    <TableRow data-testid={`pan-review-${review.userId}`}>
      <TableCell label="Customer" wide>
        <Link to={`/admin/users/${review.userId}`} className="font-medium text-slate-900 hover:text-brand-700 hover:underline">
          {review.name}
        </Link>
        <p className="break-all text-slate-600">{review.email}</p>
      </TableCell>
      <TableCell label="PAN" className="font-mono">
        {review.pan}
        {review.otherAccountsWithPan > 0 && (
          <p className="mt-1 font-sans text-xs font-medium text-red-700">
            {review.otherAccountsWithPan === 1 ? '1 other account has this PAN' : `${review.otherAccountsWithPan} other accounts have this PAN`}
          </p>
        )}
      </TableCell>
      <TableCell label="Registered name" wide>
        {review.registeredName ?? <span className="text-slate-500">Not known (no provider answer)</span>}
        {review.aadhaarLinked === false && <p className="mt-1 text-xs font-medium text-amber-800">Inoperative: not linked to Aadhaar</p>}
      </TableCell>
      <TableCell label="Name match">
        {review.nameMatch ? (
          <span className="flex flex-col items-start gap-1">
            <Badge tone={NAME_MATCH_TONES[review.nameMatch.verdict]}>
              {review.nameMatch.verdict} ({review.nameMatch.score})
            </Badge>
            {review.providerNameScore !== null && <span className="text-xs text-slate-600">Provider’s score: {review.providerNameScore}</span>}
          </span>
        ) : (
          <span className="text-slate-500">No registered name</span>
        )}
      </TableCell>
      <TableCell label="PAN card" wide>
        <PanCardCell review={review} />
      </TableCell>
      <TableCell label="Risk">
        <Badge tone={RISK_TONES[review.riskCategory]}>{RISK_LABELS[review.riskCategory]}</Badge>
      </TableCell>
      <TableCell label="Waiting" className="whitespace-nowrap">
        {review.submittedAt ? ageText(review.submittedAt, now) : ''}
      </TableCell>
      <TableCell label="Actions" wide>
        <div className="flex flex-wrap gap-2">
          <Button size="sm" disabled={busy} onClick={() => onDecide({ review, decision: 'approve' })} aria-label={`Approve the PAN of ${review.name}`}>
            Approve
          </Button>
          <Button
            size="sm"
            variant="destructive"
            disabled={busy}
            onClick={() => onDecide({ review, decision: 'reject' })}
            aria-label={`Reject the PAN of ${review.name}`}
          >
            Reject
          </Button>
          <Button
            size="sm"
            variant="outline"
            disabled={busy}
            onClick={() => onDecide({ review, decision: 'request_card' })}
            aria-label={`Ask ${review.name} for a photo of the PAN card`}
          >
            Ask for the card
          </Button>
        </div>
      </TableCell>
    </TableRow>
  );
}

/** KYC level 2 cases waiting for a review, oldest first (decision 050); each opens its case page. */
function LevelTwoQueue() {
  const cases = useLevelTwoCases();
  const items = cases.data?.pages.flatMap((page) => page.items) ?? [];
  const now = new Date(cases.dataUpdatedAt).toISOString();
  return (
    <section className="flex flex-col gap-3" aria-labelledby="level-two-title">
      <h2 id="level-two-title" className="text-lg font-semibold">
        Level 2: second document, selfie and address
      </h2>
      {cases.isPending && <LoadingState text="Loading level 2 cases..." />}
      {cases.isError && (
        <ErrorState title="Failed to load level 2 cases" message={errorMessage(cases.error, 'Please try again.')} onRetry={() => void cases.refetch()} />
      )}
      {cases.isSuccess && items.length === 0 && <EmptyState title="No level 2 cases are waiting">New ones appear here as customers send them.</EmptyState>}
      {items.length > 0 && (
        <>
          <Table label="Level 2 cases" stacked>
            <TableHead>
              <TableRow>
                <TableHeaderCell>Customer</TableHeaderCell>
                <TableHeaderCell>Document</TableHeaderCell>
                <TableHeaderCell>Name match</TableHeaderCell>
                <TableHeaderCell>Risk</TableHeaderCell>
                <TableHeaderCell>Waiting</TableHeaderCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {items.map((item) => (
                <TableRow key={item.id} data-testid={`level-two-case-${item.userId}`}>
                  <TableCell label="Customer" wide>
                    <Link to={`/admin/kyc/level2/${item.id}`} className="font-medium text-slate-900 hover:text-brand-700 hover:underline">
                      {item.name}
                    </Link>
                    <p className="break-all text-slate-600">{item.email}</p>
                  </TableCell>
                  <TableCell label="Document">
                    {DOCUMENT_TYPE_LABELS[item.documentType]}
                    {item.pendingChangeId && <p className="text-xs text-amber-800">Approval waits for a second admin</p>}
                  </TableCell>
                  <TableCell label="Name match">
                    <Badge tone={NAME_MATCH_TONES[item.nameMatch.verdict]}>
                      {item.nameMatch.verdict} ({item.nameMatch.score})
                    </Badge>
                  </TableCell>
                  <TableCell label="Risk">
                    <Badge tone={RISK_TONES[item.riskCategory]}>{RISK_LABELS[item.riskCategory]}</Badge>
                  </TableCell>
                  <TableCell label="Waiting" className="whitespace-nowrap">
                    {ageText(item.submittedAt, now)}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <LoadMore hasMore={cases.hasNextPage} loading={cases.isFetchingNextPage} onLoadMore={() => void cases.fetchNextPage()} />
        </>
      )}
    </section>
  );
}

/**
 * The KYC desk: PANs that need a person (no provider, a partial name match, a provider that could not
 * answer), oldest first, decided through the one decision flow. Every admin's list refreshes on each decision.
 */
export default function KycDeskPage() {
  const reviews = usePanReviews();
  const { target, setTarget, busy, serverError, confirm } = usePanReviewDecision();
  const items = reviews.data?.pages.flatMap((page) => page.items) ?? [];
  // Ages are counted to when the list was loaded: the page shows what the server answered then.
  const now = new Date(reviews.dataUpdatedAt).toISOString();

  return (
    <AdminPage title="KYC reviews" backTo="/admin">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-slate-600">
          PANs waiting for a person, oldest first. Approve with the name printed on the card, or reject with a reason the customer sees.
        </p>
        <Button variant="outline" onClick={() => void reviews.refetch()} disabled={reviews.isFetching} aria-busy={reviews.isFetching}>
          <RefreshCw className={reviews.isFetching ? 'animate-spin' : undefined} />
          Refresh
        </Button>
      </div>

      {reviews.isPending && <LoadingState text="Loading PAN reviews..." />}
      {reviews.isError && (
        <ErrorState title="Failed to load PAN reviews" message={errorMessage(reviews.error, 'Please try again.')} onRetry={() => void reviews.refetch()} />
      )}
      {reviews.isSuccess && items.length === 0 && (
        <EmptyState title="No PANs are waiting for a review">New ones appear here as customers submit them.</EmptyState>
      )}
      {items.length > 0 && (
        <PanReviewTable
          items={items}
          now={now}
          busy={busy}
          onDecide={setTarget}
          hasMore={reviews.hasNextPage}
          loadingMore={reviews.isFetchingNextPage}
          onLoadMore={() => void reviews.fetchNextPage()}
        />
      )}

      <LevelTwoQueue />

      {target && (
        <DecisionDialog
          key={`${target.review.userId}-${target.decision}`}
          title={DIALOG_TEXTS[target.decision].title}
          description={`${target.review.name} (${target.review.email}), PAN ${target.review.pan}`}
          confirmLabel={DIALOG_TEXTS[target.decision].confirm}
          destructive={target.decision === 'reject'}
          field={target.decision === 'approve' ? NAME_FIELD : REASON_FIELD}
          defaultNote={target.decision === 'approve' ? (target.review.registeredName ?? '') : ''}
          busy={busy}
          serverError={serverError}
          onCancel={() => setTarget(null)}
          onConfirm={(note) => void confirm(target, note)}
        />
      )}
    </AdminPage>
  );
}

function PanReviewTable({
  items,
  now,
  busy,
  onDecide,
  hasMore,
  loadingMore,
  onLoadMore,
}: {
  items: PanReview[];
  now: string;
  busy: boolean;
  onDecide: (decision: ReviewDecision) => void;
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
}) {
  return (
    <>
      <Table label="PAN reviews" stacked className="md:min-w-[64rem]">
        <TableHead>
          <TableRow>
            <TableHeaderCell>Customer</TableHeaderCell>
            <TableHeaderCell>PAN</TableHeaderCell>
            <TableHeaderCell>Registered name</TableHeaderCell>
            <TableHeaderCell>Name match</TableHeaderCell>
            <TableHeaderCell>PAN card</TableHeaderCell>
            <TableHeaderCell>Risk</TableHeaderCell>
            <TableHeaderCell>Waiting</TableHeaderCell>
            <TableHeaderCell>Actions</TableHeaderCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {items.map((review) => (
            <ReviewRow key={review.userId} review={review} now={now} busy={busy} onDecide={onDecide} />
          ))}
        </TableBody>
      </Table>
      <LoadMore hasMore={hasMore} loading={loadingMore} onLoadMore={onLoadMore} />
    </>
  );
}
