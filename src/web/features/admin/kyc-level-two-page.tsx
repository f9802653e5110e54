import { Link, useParams } from 'react-router';
import {
  documentSimilarityVerdict,
  levelTwoReasonSchema,
  REQUESTABLE_ITEMS,
  type KycImagePurpose,
  type LevelTwoCase,
  type RequestableItem,
} from '#shared/contracts/kyc-documents';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { errorMessage } from '../../lib/api.ts';
import { AdminPage } from './components/admin-page.tsx';
import { DecisionDialog, type NoteField } from './components/decision-dialog.tsx';
import { ErrorState, LoadingState } from './components/list-states.tsx';
import { fullDateTimeText } from './format.ts';
import { kycImageUrl, useLevelTwoCase } from './kyc-api.ts';
import { NAME_MATCH_TONES, RISK_LABELS, RISK_TONES } from './kyc-labels.ts';
import { DOCUMENT_TYPE_LABELS } from './kyc-level-two-labels.ts';
import { type LevelTwoDecision, useLevelTwoDecision } from './use-level-two-decision.ts';

const IMAGE_LABELS: Record<KycImagePurpose, string> = { document_front: 'Document, front', document_back: 'Document, back', selfie: 'Live selfie' };

const ITEM_LABELS: Record<RequestableItem, string> = {
  document_front: 'The front of the document',
  document_back: 'The back of the document',
  selfie: 'The live selfie',
  address: 'The address',
};

const REASON_FIELD: NoteField = {
  label: 'Reason',
  help: 'The customer sees this reason on the KYC page and in a notification.',
  maxLength: 500,
  multiline: true,
  schema: levelTwoReasonSchema,
};

/** The face similarity in plain words; the browser computed it, so it guides the reviewer's own look and decides nothing (decision 052). */
const SIMILARITY_VERDICTS: Record<ReturnType<typeof documentSimilarityVerdict>, { text: string; tone: 'success' | 'warning' | 'danger' | 'default' }> = {
  same_person_likely: { text: 'likely the same person', tone: 'success' },
  unsure: { text: 'unsure: compare the faces yourself', tone: 'warning' },
  different_person_likely: { text: 'likely a different person', tone: 'danger' },
  not_compared: { text: 'not compared (no single face found in one of the pictures)', tone: 'default' },
};

function SimilarityFact({ liveness }: { liveness: LevelTwoCase['liveness'] }) {
  if (liveness === null) return <>No live selfie</>;
  const verdict = SIMILARITY_VERDICTS[documentSimilarityVerdict(liveness.documentSimilarity)];
  return (
    <span data-testid="kyc-similarity">
      {liveness.documentSimilarity !== null && `${Math.round(liveness.documentSimilarity * 100)} %: `}
      <Badge tone={verdict.tone}>{verdict.text}</Badge>
      <span className="block text-xs text-slate-500">Measured by the customer’s browser: a guide for your own comparison of the photos, not a proof.</span>
    </span>
  );
}

const STEP_LABELS = { blink: 'blink', turn_left: 'turn left', turn_right: 'turn right' } as const;

function Fact({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <>
      <dt className="text-slate-500">{term}</dt>
      <dd className="break-words">{children}</dd>
    </>
  );
}

function trailText(trail: LevelTwoCase['submission']): string {
  const position =
    trail.geolocation.status === 'granted'
      ? `at ${trail.geolocation.latitude?.toFixed(4)}, ${trail.geolocation.longitude?.toFixed(4)} (±${Math.round(trail.geolocation.accuracyMeters ?? 0)} m)`
      : `position ${trail.geolocation.status.replace('_', ' ')}`;
  return `${fullDateTimeText(trail.at)} from ${trail.ipAddress}, ${position}`;
}

/** The images side by side. Each one is loaded from the server, which checks the admin's PIN and audits the view. */
function Images({ shown }: { shown: LevelTwoCase }) {
  return (
    <div className="grid gap-3 sm:grid-cols-3">
      {shown.images.map((image) => (
        <figure key={image.id} className="flex flex-col gap-1" data-testid={`kyc-image-${image.purpose}`}>
          <img
            src={kycImageUrl(image.id)}
            alt={`${IMAGE_LABELS[image.purpose]} (shown to admins whose PIN is verified)`}
            width={image.width}
            height={image.height}
            className="h-auto w-full rounded border border-slate-200 bg-slate-50 object-contain"
          />
          <figcaption className="text-xs text-slate-600">{IMAGE_LABELS[image.purpose]}</figcaption>
        </figure>
      ))}
    </div>
  );
}

function CaseDetails({ shown }: { shown: LevelTwoCase }) {
  const liveness = shown.liveness;
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
      <Fact term="Document">
        {DOCUMENT_TYPE_LABELS[shown.documentType]} <span className="font-mono">{shown.documentNumber}</span>
      </Fact>
      <Fact term="Name on the document">
        {shown.nameOnDocument}{' '}
        <Badge tone={NAME_MATCH_TONES[shown.nameMatch.verdict]}>
          account name: {shown.nameMatch.verdict} ({shown.nameMatch.score})
        </Badge>{' '}
        {shown.panNameMatch && (
          <Badge tone={NAME_MATCH_TONES[shown.panNameMatch.verdict]}>
            PAN name: {shown.panNameMatch.verdict} ({shown.panNameMatch.score})
          </Badge>
        )}
      </Fact>
      <Fact term="PAN">
        {shown.pan.status}
        {shown.pan.registeredName && `, registered to ${shown.pan.registeredName}`}
        {shown.pan.checkedBy && ` (checked by ${shown.pan.checkedBy})`}
        {shown.pan.aadhaarLinked === false && ', inoperative: not linked to Aadhaar'}
      </Fact>
      <Fact term="Address">
        {[shown.address.line1, shown.address.line2, shown.address.city, shown.address.state, shown.address.pinCode].filter(Boolean).join(', ')}
      </Fact>
      <Fact term="Liveness">
        {liveness
          ? `asked to ${liveness.challenge.map((step) => STEP_LABELS[step]).join(', then ')}: ${liveness.passedFrames} frames passed, live ${liveness.liveScore.toFixed(2)}, real ${liveness.realScore.toFixed(2)}, face ${liveness.faceScore.toFixed(2)}`
          : 'No live selfie'}
      </Fact>
      {liveness?.frames && liveness.keptFrameIndex !== undefined && (
        <Fact term="Selfie frames">
          <ol className="list-decimal pl-5" data-testid="kyc-selfie-frames">
            {liveness.frames.map((frame, index) => (
              <li key={index}>
                face {frame.faceScore.toFixed(2)}, live {frame.liveScore.toFixed(2)}, real {frame.realScore.toFixed(2)}, document{' '}
                {frame.documentSimilarity === null ? 'not compared' : frame.documentSimilarity.toFixed(2)}
                {index === liveness.keptFrameIndex && <strong> (kept: the best by face, then live, then real, then document score)</strong>}
              </li>
            ))}
          </ol>
        </Fact>
      )}
      <Fact term="Selfie and document photo">
        <SimilarityFact liveness={liveness} />
      </Fact>
      <Fact term="Sent">{trailText(shown.submission)}</Fact>
      <Fact term="Signed up">{shown.signup ? trailText(shown.signup) : 'No sign-up trail (account older than the trail)'}</Fact>
      <Fact term="Risk">
        <Badge tone={RISK_TONES[shown.riskCategory]}>{RISK_LABELS[shown.riskCategory]}</Badge>
      </Fact>
      {shown.reason && <Fact term="Reason given">{shown.reason}</Fact>}
    </dl>
  );
}

/** A level 2 case: the documents and the selfie side by side, the checks beside them, and the three decisions. */
export default function KycLevelTwoPage() {
  const { id = '' } = useParams();
  const found = useLevelTwoCase(id);
  const { decision, setDecision, item, setItem, busy, serverError, decide } = useLevelTwoDecision(id);

  const shown = found.data;
  return (
    <AdminPage title="KYC level 2 case" backTo="/admin/kyc">
      {found.isPending && <LoadingState text="Loading the case..." />}
      {found.isError && (
        <ErrorState title="Failed to load the case" message={errorMessage(found.error, 'Please try again.')} onRetry={() => void found.refetch()} />
      )}
      {shown && <CaseCard shown={shown} busy={busy} onDecide={setDecision} />}
      {shown && decision && (
        <DecisionDialog
          key={decision}
          title={decision === 'approve' ? 'Approve KYC level 2?' : decision === 'reject' ? 'Reject KYC level 2?' : 'Ask for it again?'}
          description={`${shown.name} (${shown.email}), ${DOCUMENT_TYPE_LABELS[shown.documentType]}`}
          confirmLabel={decision === 'approve' ? 'Approve' : decision === 'reject' ? 'Reject' : 'Ask again'}
          destructive={decision === 'reject'}
          field={decision === 'approve' ? undefined : REASON_FIELD}
          busy={busy}
          serverError={serverError}
          onCancel={() => setDecision(null)}
          onConfirm={(note) => void decide(decision, note)}
        >
          {decision === 'request-again' && <RequestedItemChoice item={item} onChange={setItem} />}
        </DecisionDialog>
      )}
    </AdminPage>
  );
}

function CaseCard({ shown, busy, onDecide }: { shown: LevelTwoCase; busy: boolean; onDecide: (decision: LevelTwoDecision) => void }) {
  const waiting = shown.status === 'pending_review';
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <Link to={`/admin/users/${shown.userId}`} className="hover:underline">
            {shown.name}
          </Link>{' '}
          <span className="text-sm font-normal text-slate-600">{shown.email}</span>
        </CardTitle>
        <p className="text-sm text-slate-600" data-testid="level-two-status">
          {shown.status.replace('_', ' ')}
          {shown.pendingChangeId && ': approval waits for a second admin (Pending changes)'}
        </p>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <Images shown={shown} />
        <CaseDetails shown={shown} />
        {waiting && (
          <div className="flex flex-wrap gap-2">
            <Button disabled={busy || shown.pendingChangeId !== null} onClick={() => onDecide('approve')}>
              Approve level 2
            </Button>
            <Button variant="outline" disabled={busy} onClick={() => onDecide('request-again')}>
              Ask for a document again
            </Button>
            <Button variant="destructive" disabled={busy} onClick={() => onDecide('reject')}>
              Reject
            </Button>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

function RequestedItemChoice({ item, onChange }: { item: RequestableItem; onChange: (item: RequestableItem) => void }) {
  return (
    <label className="flex flex-col gap-1 text-sm">
      What must be sent again
      <select className="rounded border border-slate-300 p-2" value={item} onChange={(event) => onChange(event.target.value as RequestableItem)}>
        {REQUESTABLE_ITEMS.map((value) => (
          <option key={value} value={value}>
            {ITEM_LABELS[value]}
          </option>
        ))}
      </select>
    </label>
  );
}
