import { type ChangeEvent } from 'react';
import { BACK_NEEDED, KYC_DOCUMENT_MESSAGES, KYC_DOCUMENT_TYPES, type KycDocumentType, type KycImagePurpose } from '#shared/contracts/kyc-documents';
import type { SignupGeolocation } from '#shared/contracts/signup-trail';
import { Button } from '../../components/ui/button.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { ApiError } from '../../lib/api.ts';
import { translate as t, type MessageKey } from '../../lib/i18n/i18n.ts';
import { localizeMessage } from '../../lib/i18n/localize-message.ts';
import { useBrowserPositionAsk } from '../../lib/browser-position.ts';
import { uploadKycPhoto } from './kyc-photo-upload.ts';
import { SelfieStep } from './selfie-step.tsx';
import { type LevelTwoAddress, type Photo, useLevelTwoForm } from './use-level-two-form.ts';

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

export function LevelTwoForm() {
  const { documentDetails, front, setFront, back, setBack, selfie, setSelfie, address, setAddress, geolocation, setGeolocation, errors, sending, submit } =
    useLevelTwoForm();
  const { documentType } = documentDetails;

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
      <DocumentFields {...documentDetails} errors={errors} />
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
      <AddressFields address={address} onChange={setAddress} errors={errors} />
      <LocationAsk value={geolocation} onChange={setGeolocation} />
      <SelfieStep documentPhoto={front.state === 'added' ? front.file : undefined} selfie={selfie} onChange={setSelfie} error={errors.selfieImageId} />
      {errors.root && <p className="text-sm text-red-700">{localizeMessage(errors.root)}</p>}
      <Button type="submit" disabled={sending || front.state === 'uploading' || back.state === 'uploading'} aria-busy={sending}>
        {sending ? t('kyc.l2Sending') : t('kyc.l2Send')}
      </Button>
    </form>
  );
}

function DocumentFields({
  documentType,
  setDocumentType,
  documentNumber,
  setDocumentNumber,
  nameOnDocument,
  setNameOnDocument,
  errors,
}: {
  documentType: KycDocumentType;
  setDocumentType: (type: KycDocumentType) => void;
  documentNumber: string;
  setDocumentNumber: (number: string) => void;
  nameOnDocument: string;
  setNameOnDocument: (name: string) => void;
  errors: Record<string, string>;
}) {
  return (
    <>
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
    </>
  );
}

function AddressFields({
  address,
  onChange,
  errors,
}: {
  address: LevelTwoAddress;
  onChange: (address: LevelTwoAddress) => void;
  errors: Record<string, string>;
}) {
  const addressField = (name: keyof LevelTwoAddress, label: MessageKey, maxLength: number, autoComplete: string) => (
    <FormField label={t(label)} error={errors[`address.${name}`]}>
      <Input
        maxLength={maxLength}
        autoComplete={autoComplete}
        value={address[name]}
        onChange={(event) => onChange({ ...address, [name]: event.target.value })}
      />
    </FormField>
  );
  return (
    <>
      {addressField('line1', 'kyc.l2AddressLine1', 200, 'address-line1')}
      {addressField('line2', 'kyc.l2AddressLine2', 200, 'address-line2')}
      {addressField('city', 'kyc.l2City', 100, 'address-level2')}
      {addressField('state', 'kyc.l2State', 60, 'address-level1')}
      {addressField('pinCode', 'kyc.l2PinCode', 6, 'postal-code')}
    </>
  );
}
