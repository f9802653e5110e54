import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { kycPanResponseSchema } from '#shared/contracts/kyc';
import { BACK_NEEDED, KYC_DOCUMENT_MESSAGES, submitLevelTwoRequestSchema, type KycDocumentType } from '#shared/contracts/kyc-documents';
import type { SignupGeolocation } from '#shared/contracts/signup-trail';
import { ApiError, apiRequest } from '../../lib/api.ts';
import { translate as t } from '../../lib/i18n/i18n.ts';
import { localizeMessage } from '../../lib/i18n/localize-message.ts';
import { useEndOfSessionHandler } from '../auth/index.ts';
import { KYC_QUERY_KEY } from './api.ts';
import type { Selfie } from './selfie-step.tsx';

/** A photo of the document; the front's file stays here too, for the selfie's comparison with it. */
export type Photo = { state: 'idle' } | { state: 'uploading' } | { state: 'added'; id: string; file: File } | { state: 'failed'; message: string };

export const EMPTY_ADDRESS = { line1: '', line2: '', city: '', state: '', pinCode: '' };

export type LevelTwoAddress = typeof EMPTY_ADDRESS;

/**
 * The level 2 form's values and its submission: checked here first with the shared contract (plus
 * the selfie, which this form always asks for), then sent; the server's field errors land beside
 * the same fields.
 */
export function useLevelTwoForm() {
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

  return {
    documentDetails: { documentType, setDocumentType, documentNumber, setDocumentNumber, nameOnDocument, setNameOnDocument },
    front,
    setFront,
    back,
    setBack,
    selfie,
    setSelfie,
    address,
    setAddress,
    geolocation,
    setGeolocation,
    errors,
    sending,
    submit,
  };
}
