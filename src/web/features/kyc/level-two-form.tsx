import { useQueryClient } from '@tanstack/react-query';
import { useState, type ChangeEvent } from 'react';
import { toast } from 'sonner';
import { kycPanResponseSchema } from '#shared/contracts/kyc';
import {
  BACK_NEEDED,
  KYC_DOCUMENT_MESSAGES,
  KYC_DOCUMENT_TYPES,
  submitLevelTwoRequestSchema,
  type KycDocumentType,
  type KycImagePurpose,
} from '#shared/contracts/kyc-documents';
import type { SignupGeolocation } from '#shared/contracts/signup-trail';
import { Button } from '../../components/ui/button.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { ApiError, apiRequest } from '../../lib/api.ts';
import { translate as t, type MessageKey } from '../../lib/i18n/i18n.ts';
import { localizeMessage } from '../../lib/i18n/localize-message.ts';
import { useBrowserPositionAsk } from '../../lib/browser-position.ts';
import { useEndOfSessionHandler } from '../auth/index.ts';
import { KYC_QUERY_KEY } from './api.ts';
import { uploadKycPhoto } from './kyc-photo-upload.ts';
import { SelfieStep, type Selfie } from './selfie-step.tsx';

/*
 * KYC level 2's document and address (decision 050). Each photo is sent as soon as it is chosen (the
 * phone offers its camera or its gallery), so a failure is told beside that photo; the submission
 * then names the photos. The live selfie is its own step (decision 052), after the document's front,
 * whose face it is compared with.
 */

const TYPE_LABELS: Record<KycDocumentType, MessageKey> = {
  passport: 'kyc.l2Passport',
  driving_licence: 'kyc.l2DrivingLicence',
  voter_id: 'kyc.l2VoterId',
  aadhaar_masked: 'kyc.l2AadhaarMasked',
};

/** A photo of the document; the front's file stays here too, for the selfie's comparison with it. */
type Photo = { state: 'idle' } | { state: 'uploading' } | { state: 'added'; id: string; file: File } | { state: 'failed'; message: string };

function PhotoField({ label, purpose, photo, onChange }: { label: string; purpose: KycImagePurpose; photo: Photo; onChange: (photo: Photo) => void }) {
  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (file === undefined) return;
    onChange({ state: 'uploading' });
    try {
      onChange({ state: 'added', id: await uploadKycPhoto(purpose, file, file.name), file });
    } catch (error) {
      onChange({ state: 'failed', message: error instanceof ApiError ? error.message : KYC_DOCUMENT_MESSAGES.chooseImage });
    }
  };
  return (
    <FormField
      label={label}
      error={photo.state === 'failed' ? photo.message : undefined}
      help={photo.state === 'uploading' ? t('kyc.l2Uploading') : photo.state === 'added' ? t('kyc.l2PhotoAdded') : undefined}
    >
      <input
        type="file"
        accept="image/jpeg,image/png,image/heic,image/heif"
        className="text-sm"
        data-testid={`kyc-photo-${purpose}`}
        onChange={(event) => void choose(event)}
      />
    </FormField>
  );
}

function LocationAsk({ value, onChange }: { value: SignupGeolocation | undefined; onChange: (value: SignupGeolocation) => void }) {
  const { asking, share } = useBrowserPositionAsk(onChange);
  return (
    <div className="flex flex-col gap-2 rounded-md border border-slate-200 bg-slate-50 p-3 text-sm">
      <p className="text-slate-700">{t('kyc.l2LocationAsk')}</p>
      {value === undefined ? (
        <div className="flex gap-2">
          <Button type="button" size="sm" variant="outline" disabled={asking} onClick={share}>
            {t('kyc.l2LocationShare')}
          </Button>
          <Button type="button" size="sm" variant="ghost" disabled={asking} onClick={() => onChange({ status: 'denied' })}>
            {t('kyc.l2LocationNotNow')}
          </Button>
        </div>
      ) : (
        <p className="text-slate-600">{value.status === 'granted' ? t('kyc.l2LocationThanks') : t('kyc.l2LocationNone')}</p>
      )}
    </div>
  );
}

const EMPTY_ADDRESS = { line1: '', line2: '', city: '', state: '', pinCode: '' };

export function LevelTwoForm() {
  const queryClient = useQueryClient();
  const endOfSession = useEndOfSessionHandler();
  const [documentType, setDocumentType] = useState<KycDocumentType>('driving_licence');
  const [documentNumber, setDocumentNumber] = useState('');
  const [nameOnDocument, setNameOnDocument] = useState('');
  const [front, setFront] = useState<Photo>({ state: 'idle' });
  const [back, setBack] = useState<Photo>({ state: 'idle' });
  const [selfie, setSelfie] = useState<Selfie | null>(null);
  const [address, setAddress] = useState(EMPTY_ADDRESS);
  const [geolocation, setGeolocation] = useState<SignupGeolocation>();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [sending, setSending] = useState(false);

  const submit = async () => {
    const request = {
      documentType,
      documentNumber,
      nameOnDocument,
      frontImageId: front.state === 'added' ? front.id : undefined,
      backImageId: BACK_NEEDED[documentType] && back.state === 'added' ? back.id : undefined,
      selfieImageId: selfie?.id,
      address: { ...address, line2: address.line2 === '' ? undefined : address.line2 },
      geolocation,
    };
    const checked = submitLevelTwoRequestSchema.safeParse(request);
    // The server takes a case without the selfie (the desk then asks for it); this form does not send one.
    if (!checked.success || selfie === null) {
      const found: Record<string, string> = checked.success
        ? {}
        : Object.fromEntries(checked.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
      if (selfie === null) found.selfieImageId = KYC_DOCUMENT_MESSAGES.selfieNeeded;
      setErrors(found);
      return;
    }
    setErrors({});
    setSending(true);
    try {
      const answer = await apiRequest('/api/kyc/level2', kycPanResponseSchema, { method: 'POST', body: request });
      queryClient.setQueryData(KYC_QUERY_KEY, answer.kyc);
      toast.success(localizeMessage(answer.message));
    } catch (error) {
      if (endOfSession(error)) return;
      setErrors(
        error instanceof ApiError && Object.keys(error.fields).length > 0
          ? error.fields
          : { root: error instanceof ApiError ? error.message : t('kyc.l2Failed') },
      );
    } finally {
      setSending(false);
    }
  };

  const addressField = (name: keyof typeof EMPTY_ADDRESS, label: MessageKey, maxLength: number, autoComplete: string) => (
    <FormField label={t(label)} error={errors[`address.${name}`]}>
      <Input
        maxLength={maxLength}
        autoComplete={autoComplete}
        value={address[name]}
        onChange={(event) => setAddress({ ...address, [name]: event.target.value })}
      />
    </FormField>
  );

  return (
    <form
      className="flex flex-col gap-3"
      noValidate
      data-testid="kyc-level-two-form"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <p className="text-sm text-slate-600">{t('kyc.l2Intro')}</p>
      <FormField label={t('kyc.l2DocumentType')} error={errors.documentType}>
        <select
          className="rounded-md border border-slate-300 bg-white p-2 text-sm"
          value={documentType}
          onChange={(event) => setDocumentType(event.target.value as KycDocumentType)}
        >
          {KYC_DOCUMENT_TYPES.map((type) => (
            <option key={type} value={type}>
              {t(TYPE_LABELS[type])}
            </option>
          ))}
        </select>
      </FormField>
      <FormField label={t('kyc.l2DocumentNumber')} error={errors.documentNumber} help={documentType === 'aadhaar_masked' ? t('kyc.l2AadhaarHelp') : undefined}>
        <Input
          autoComplete="off"
          spellCheck={false}
          maxLength={40}
          className="font-mono uppercase"
          value={documentNumber}
          onChange={(event) => setDocumentNumber(event.target.value)}
        />
      </FormField>
      <FormField label={t('kyc.l2NameOnDocument')} error={errors.nameOnDocument}>
        <Input autoComplete="name" maxLength={100} value={nameOnDocument} onChange={(event) => setNameOnDocument(event.target.value)} />
      </FormField>
      <PhotoField
        label={t('kyc.l2Front')}
        purpose="document_front"
        photo={front.state === 'idle' && errors.frontImageId ? { state: 'failed', message: errors.frontImageId } : front}
        onChange={setFront}
      />
      {BACK_NEEDED[documentType] && (
        <PhotoField
          label={t('kyc.l2Back')}
          purpose="document_back"
          photo={back.state === 'idle' && errors.backImageId ? { state: 'failed', message: errors.backImageId } : back}
          onChange={setBack}
        />
      )}
      {addressField('line1', 'kyc.l2AddressLine1', 200, 'address-line1')}
      {addressField('line2', 'kyc.l2AddressLine2', 200, 'address-line2')}
      {addressField('city', 'kyc.l2City', 100, 'address-level2')}
      {addressField('state', 'kyc.l2State', 60, 'address-level1')}
      {addressField('pinCode', 'kyc.l2PinCode', 6, 'postal-code')}
      <LocationAsk value={geolocation} onChange={setGeolocation} />
      <SelfieStep documentPhoto={front.state === 'added' ? front.file : undefined} selfie={selfie} onChange={setSelfie} error={errors.selfieImageId} />
      {errors.root && <p className="text-sm text-red-700">{localizeMessage(errors.root)}</p>}
      <Button type="submit" disabled={sending || front.state === 'uploading' || back.state === 'uploading'} aria-busy={sending}>
        {sending ? t('kyc.l2Sending') : t('kyc.l2Send')}
      </Button>
    </form>
  );
}
